import ResponderChain

/// Polls `attempt` every 50 ms until it returns a value, and fails with what it waited for if
/// none came within `limit`: for states that only a poll observes (a lease expiring on the
/// database's clock). Errors thrown by `attempt` are retried too (a server restarting).
@discardableResult
func eventually<T>(
    _ what: String, within limit: Duration = .seconds(20), _ attempt: () async throws -> T?
) async throws -> T {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    var lastError: (any Error)?
    while clock.now < deadline {
        do {
            if let value = try await attempt() { return value }
        } catch {
            lastError = error
        }
        try await clock.sleep(for: .milliseconds(50))
    }
    throw WaitedInVain(what: what, lastError: lastError.map { "\($0)" })
}

/// What ``eventually(_:within:_:)`` waited for, in vain.
struct WaitedInVain: Error, CustomStringConvertible {
    let what: String
    let lastError: String?
    var description: String {
        "waited in vain for \(what)" + (lastError.map { " (last error: \($0))" } ?? "")
    }
}

extension AsyncStream<EventSystem.StoreSignal>.Iterator {
    /// The next signal that is not `.posted` (a listener that listens anew says `.posted`
    /// whenever it likes), or `nil` once the sequence ends.
    mutating func next(skippingPosted: Void) async -> EventSystem.StoreSignal? {
        while let signal = await next() {
            if signal != .posted { return signal }
        }
        return nil
    }
}

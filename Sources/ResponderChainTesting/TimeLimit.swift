/// The time limit of every wait in this module, and the one place it reads a clock: each wait
/// races the signal it waits for against ``sleep(for:)`` here (the polling `waitUntil` checks
/// ``hasPassed(_:)``), so that a different clock can be put in for all of them at once.
enum TimeLimit {
    /// Sleeps for `limit` on `ContinuousClock`.
    static func sleep(for limit: Duration) async throws {
        try await Task.sleep(for: limit, clock: .continuous)
    }

    /// The moment `limit` from now, for a wait that checks its limit itself.
    static func deadline(after limit: Duration) -> ContinuousClock.Instant {
        ContinuousClock.now.advanced(by: limit)
    }

    /// Whether `deadline` has passed.
    static func hasPassed(_ deadline: ContinuousClock.Instant) -> Bool {
        ContinuousClock.now >= deadline
    }

    /// How a raced wait ended.
    enum Ending<Value: Sendable>: Sendable {
        /// The wait returned `value` first.
        case value(Value)
        /// The limit passed first; the wait was cancelled.
        case timeUp
    }

    /// Runs `wait` (a wait that ends with `CancellationError` once its task is cancelled) raced
    /// by a timer of `limit`, and returns its value, or ``Ending/timeUp`` when the limit passed
    /// first: the wait has then been cancelled and has left its line. A value that arrives as
    /// the limit passes still wins.
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled first.
    static func race<Value: Sendable>(
        _ limit: Duration,
        _ wait: @escaping @Sendable () async throws -> Value
    ) async throws -> Ending<Value> {
        try await withThrowingTaskGroup(of: Ending<Value>.self) { group in
            group.addTask { .value(try await wait()) }
            group.addTask {
                try await sleep(for: limit)
                return .timeUp
            }
            defer { group.cancelAll() }
            if case .value(let value)? = try await group.next() { return .value(value) }
            // Time is up: stop the wait, and keep what it got if it got there meanwhile.
            group.cancelAll()
            if case .value(let value)? = try? await group.next() { return .value(value) }
            try Task.checkCancellation()
            return .timeUp
        }
    }
}

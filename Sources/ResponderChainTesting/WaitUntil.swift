/// Waits until `holds` returns `true`, re-checking it each time the task has yielded, and fails
/// instead of hanging when it does not hold within `limit`.
///
/// Use it where no ``Gate`` or ``DeadLetterRecorder`` signals the moment a test needs, for a state
/// that other tasks change (a poster suspended for room, a shutdown under way). It polls that real
/// state change; it never sleeps to let things settle.
///
/// ```swift
/// let shutdown = Task { await system.shutDown(gracePeriod: .seconds(60)) }
/// try await waitUntil("the shutdown has begun") { system.isShuttingDown }
/// ```
///
/// - Parameters:
///   - condition: What `holds` checks, in words: the timeout's message names it.
///   - limit: How long to keep checking, measured on `ContinuousClock`.
///   - isolation: The caller's actor, on which `holds` runs; leave the default.
///   - holds: Whether the awaited state has been reached.
/// - Throws: ``WaitTimedOut`` when `limit` passes first; `CancellationError` when the waiting
///   task is cancelled first (so a test's time limit ends the wait).
public func waitUntil(
    _ condition: String,
    within limit: Duration = .seconds(30),
    isolation: isolated (any Actor)? = #isolation,
    _ holds: () async -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: limit)
    while await !holds() {
        try Task.checkCancellation()
        guard clock.now < deadline else { throw WaitTimedOut(condition: condition, limit: limit) }
        await Task.yield()
    }
}

/// The error ``waitUntil(_:within:isolation:_:)`` throws when its condition did not hold within
/// its limit.
public struct WaitTimedOut: Error, Equatable, CustomStringConvertible {
    /// The condition that did not hold, as the caller described it.
    public let condition: String
    /// How long the condition was checked.
    public let limit: Duration

    /// For example: `still waiting until "the shutdown has begun" after 30.0 seconds`.
    public var description: String {
        "still waiting until \"\(condition)\" after \(limit)"
    }
}

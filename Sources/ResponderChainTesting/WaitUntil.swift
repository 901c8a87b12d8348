public import ResponderChain

/// Waits until `holds` returns `true`, re-checking it each time `changes` delivers an element,
/// and fails instead of hanging when it does not hold within `limit`.
///
/// Use it for a state that other tasks change and that some sequence reports the changes of:
/// the wait checks `holds` once at once, then once after each element, and sleeps in between;
/// it does not check it again at its limit. Make the sequence before the change can happen
/// (before starting the task that makes it), so that no change is missed;
/// ``waitUntil(_:within:observing:isolation:_:)`` does that for the sends and posts of one system.
///
/// ```swift
/// let (changes, changed) = AsyncStream.makeStream(of: Void.self)
/// let worker = Task { await model.load(); changed.yield() }
/// try await waitUntil("the model has loaded", on: changes) { await model.isLoaded }
/// ```
///
/// - Parameters:
///   - condition: What `holds` checks, in words: the timeout's message names it.
///   - limit: How long to wait at most, measured on `ContinuousClock`.
///   - changes: A sequence with an element for each change worth re-checking `holds` after.
///   - isolation: The caller's actor, on which `holds` runs; leave the default.
///   - holds: Whether the awaited state has been reached.
/// - Throws: ``WaitTimedOut`` when `limit` passes first, or when `changes` ends first (nothing
///   can change any more); `CancellationError` when the waiting task is cancelled first.
public func waitUntil<Changes: AsyncSequence & Sendable>(
    _ condition: String,
    within limit: Duration = .seconds(30),
    on changes: Changes,
    isolation: isolated (any Actor)? = #isolation,
    _ holds: () async -> Bool
) async throws {
    try Task.checkCancellation()
    if await holds() { return }
    let (ticks, tick) = AsyncStream.makeStream(of: SignalTick.self)
    try await withThrowingTaskGroup(of: Void.self, isolation: isolation) { group in
        group.addTask {
            do {
                for try await _ in changes { tick.yield(.changed) }
                tick.yield(.ended)
            } catch {
                tick.yield(.ended)
            }
        }
        group.addTask {
            do {
                try await TimeLimit.sleep(for: limit)
                tick.yield(.timeUp)
            } catch {
                tick.yield(.cancelled)
            }
        }
        defer { group.cancelAll() }
        for await next in ticks {
            try Task.checkCancellation()
            switch next {
            case .changed:
                if await holds() { return }
            case .ended:
                throw WaitTimedOut(
                    until: condition, limit: limit, arrived: "its changes ended, and it did not hold")
            case .timeUp:
                throw WaitTimedOut(until: condition, limit: limit, arrived: "it did not hold")
            case .cancelled:
                throw CancellationError()
            }
        }
        throw CancellationError()
    }
}

/// Waits until `holds` returns `true`, re-checking it each time a send or post through `system`
/// ends (each element of its outcome stream, `EventSystem.observeOutcomes(buffering:)`), and
/// fails instead of hanging when it does not hold within `limit`.
///
/// The stream is opened before `holds` is first checked, so an ending that happens meanwhile is
/// not missed.
///
/// ```swift
/// for order in orders { await checkout.post(order) }
/// try await waitUntil("every order is booked", observing: system) { await ledger.count == orders.count }
/// ```
///
/// - Parameters:
///   - condition: What `holds` checks, in words: the timeout's message names it.
///   - limit: How long to wait at most, measured on `ContinuousClock`.
///   - system: The system whose endings may change what `holds` checks.
///   - isolation: The caller's actor, on which `holds` runs; leave the default.
///   - holds: Whether the awaited state has been reached.
/// - Throws: ``WaitTimedOut`` when `limit` passes first, or when the system has shut down and
///   it does not hold; `CancellationError` when the waiting task is cancelled first.
public func waitUntil(
    _ condition: String,
    within limit: Duration = .seconds(30),
    observing system: EventSystem,
    isolation: isolated (any Actor)? = #isolation,
    _ holds: () async -> Bool
) async throws {
    let outcomes = system.observeOutcomes(buffering: .keepingNewest(1))
    try await waitUntil(condition, within: limit, on: outcomes, isolation: isolation, holds)
}

/// Waits until `holds` returns `true`, re-checking it each time the task has yielded, and fails
/// instead of hanging when it does not hold within `limit`.
///
/// This is the one wait of the module that no signal wakes: it spins on `Task.yield()`. Prefer
/// a wait that a signal wakes (a ``Gate``, a ``DeadLetterRecorder``,
/// ``waitUntil(_:within:observing:isolation:_:)`` or ``waitUntil(_:within:on:isolation:_:)``).
/// It remains for the states that nothing reports a change of: a poster suspended for room, a
/// task in a one-at-a-time responder's line, an object released. It is bounded: it never
/// sleeps to let things settle, and gives up at its limit.
///
/// ```swift
/// let poster = Task { await leaf.post(Ping()) }       // the posting limit is reached
/// try await waitUntil("one poster waits for room") { system.suspendedPosters == 1 }
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
    let deadline = TimeLimit.deadline(after: limit)
    while await !holds() {
        try Task.checkCancellation()
        guard !TimeLimit.hasPassed(deadline) else {
            throw WaitTimedOut(until: condition, limit: limit, arrived: "it did not hold")
        }
        await Task.yield()
    }
}

/// What wakes a `waitUntil` that a sequence drives.
enum SignalTick: Sendable {
    /// The sequence delivered an element.
    case changed
    /// The sequence ended.
    case ended
    /// The limit passed.
    case timeUp
    /// The waiting task was cancelled.
    case cancelled
}

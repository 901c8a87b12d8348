public import ResponderChain

/// A clock that moves only when a test moves it: give it to an `EventSystem` and every
/// deadline, timeout, grace period and gesture timer of that system waits for
/// ``advance(by:)``.
///
/// ```swift
/// let clock = ManualClock()
/// let system = EventSystem(clock: clock)
/// async let outcome = order.send(PlaceOrder(), options: SendOptions(timeout: .seconds(30)))
/// try await clock.waitForTimers(1)       // the send has scheduled its deadline
/// await clock.advance(by: .seconds(30))  // the send times out, and has ended, here
/// ```
///
/// ``advance(by:)`` fires the timers that fall due one at a time, in deadline order (ties in the
/// order they were scheduled), each at its own instant (``now`` reads it while it runs), and
/// waits until the work each one started has settled before it fires the next: a timed-out
/// send has ended, with its outcome published, before `advance` returns. Timers scheduled by
/// that work fire in the same call when they fall due by its end. ``run(limit:)`` advances until no
/// timer is left.
///
/// A task that sleeps on the clock (`try await clock.sleep(for: .seconds(5))`) is a timer too:
/// `advance` resumes it at its instant, but what it does once awake is its own task's work,
/// which `advance` does not wait for. Cancelling a sleeping task wakes it at once with
/// `CancellationError`.
///
/// Move the clock from one task at a time: two `advance` calls at once interleave their timers.
public final class ManualClock: Clock, Sendable {
    /// An instant of a manual clock: the time since its zero.
    public typealias Instant = EventSystem.Instant

    private struct State: Sendable {
        var now: Instant
        var heap = TimerHeap()
        /// Tasks waiting for a number of timers to be scheduled (``waitForTimers(_:within:)``).
        var timerWaiters: [TimerWaiter] = []
        var nextWaiter: UInt64 = 0

        /// The number of timers scheduled whose description `matching` accepts (all, when `nil`).
        func count(_ matching: (@Sendable (String) -> Bool)?) -> Int {
            guard let matching else { return heap.count }
            return heap.pending.count { matching($0.purpose.description) }
        }
    }

    /// A task waiting for `count` timers whose descriptions `matching` accepts (all, when `nil`).
    private struct TimerWaiter: Sendable {
        let id: UInt64
        let count: Int
        let matching: (@Sendable (String) -> Bool)?
        let continuation: CheckedContinuation<Void, Never>
    }

    private let state: Locked<State>

    /// A clock at `now`, zero by default.
    public init(now: Instant = Instant(offset: .zero)) {
        state = Locked(State(now: now))
    }

    /// The instant the clock has been advanced to.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step the clock takes: none, it moves exactly as far as it is told.
    public var minimumResolution: Duration { .zero }

    /// The number of timers scheduled and not yet fired or cancelled (sleeping tasks included).
    public var pendingTimerCount: Int { state.withLock { $0.heap.count } }

    /// The timers still to fire, in firing order, each with its deadline and what it is for
    /// (`"the deadline of PlaceOrder (event 12)"`, `"the shutdown's grace period"`, `"a sleep"`).
    public var pendingTimers: [(deadline: Instant, purpose: String)] {
        state.withLock { $0.heap.pending }.map { ($0.deadline, $0.purpose.description) }
    }

    /// The deadline of the next timer to fire, if any.
    public var nextDeadline: Instant? { state.withLock { $0.heap.earliest() } }

    /// Suspends until the clock has been advanced to `deadline`; returns at once when it is
    /// there already.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleep(until: deadline, for: .sleep, settle: nil)
    }

    /// Moves the clock `duration` forward, firing every timer that falls due on the way, in
    /// deadline order, each once what the one before started has settled.
    public func advance(by duration: Duration) async {
        precondition(duration >= .zero, "a clock does not go backwards: advance(by: \(duration))")
        await advance(to: now + duration)
    }

    /// Moves the clock to `instant` (never backwards), firing the timers due by then.
    public func advance(to instant: Instant) async {
        while await fireNext(by: instant) != nil {}
        state.withLock { $0.now = max($0.now, instant) }
    }

    /// Fires the first timer due by `instant`, if any: moves the clock to its deadline, runs its
    /// work, and returns once the work has settled, with the timer's deadline and purpose. The
    /// one step of ``advance(to:)``; the test store takes it itself, to see each timer fire.
    package func fireNext(by instant: Instant) async -> (deadline: Instant, purpose: TimerPurpose)? {
        guard
            let (timer, deadline, purpose) = state.withLock({
                state -> (TimerHeapEntry, Instant, TimerPurpose)? in
                guard let due = state.heap.popDue(by: instant) else { return nil }
                state.now = max(state.now, due.deadline)
                return (TimerHeapEntry(work: due.work), due.deadline, due.purpose)
            })
        else { return nil }
        await timer.work()
        return (deadline, purpose)
    }

    /// Advances to each next timer until none is scheduled, timers scheduled by the ones that
    /// fire included. Returns the number of timers fired.
    ///
    /// A timer that schedules another for ever (a periodic gauge) keeps it going: give `limit`,
    /// and it stops after that many.
    @discardableResult
    public func run(limit: Int = .max) async -> Int {
        var fired = 0
        while fired < limit, let next = nextDeadline {
            if await fireNext(by: next) != nil { fired += 1 }
        }
        return fired
    }

    /// Returns once at least `count` timers are scheduled: the step between starting work that
    /// schedules a timer (a send with a timeout, a shutdown) and advancing the clock past it,
    /// without which the advance could come first and fire nothing.
    ///
    /// `matching`, when given, counts only the timers whose description (as ``pendingTimers``
    /// gives it) it accepts: `{ $0.hasPrefix("the wait before attempt 2") }` waits for a retry,
    /// whatever other timers come and go meanwhile.
    ///
    /// - Throws: ``WaitTimedOut`` when they are not scheduled within `limit` (real time).
    public func waitForTimers(
        _ count: Int, within limit: Duration = .seconds(30), matching: (@Sendable (String) -> Bool)? = nil
    ) async throws {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        let ending = try await TimeLimit.race(limit) { [self] in
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let ready = state.withLock { state -> Bool in
                        guard state.count(matching) < count, !Task.isCancelled else { return true }
                        state.timerWaiters.append(
                            TimerWaiter(id: id, count: count, matching: matching, continuation: continuation))
                        return false
                    }
                    if ready { continuation.resume() }
                }
            } onCancel: {
                state.withLock { state in
                    let index = state.timerWaiters.firstIndex { $0.id == id }
                    return index.map { state.timerWaiters.remove(at: $0).continuation }
                }?.resume()
            }
            try Task.checkCancellation()
        }
        if case .timeUp = ending {
            throw WaitTimedOut(
                condition: "\(count) timers scheduled", limit: limit,
                arrived: "\(pendingTimerCount) scheduled")
        }
    }
}

/// A fired timer's work, taken out of the lock.
private struct TimerHeapEntry: Sendable {
    let work: @Sendable () async -> Void
}

extension ManualClock: TimerScheduler {
    package func schedule(
        at deadline: Instant, for purpose: TimerPurpose, _ work: @escaping @Sendable () async -> Void
    ) -> TimerID {
        let (id, ready) = state.withLock { state in
            let id = state.heap.schedule(at: deadline, for: purpose, work)
            let satisfied = state.timerWaiters.filter { $0.count <= state.count($0.matching) }
            state.timerWaiters.removeAll { waiter in satisfied.contains { $0.id == waiter.id } }
            return (id, satisfied.map(\.continuation))
        }
        for continuation in ready { continuation.resume() }
        return id
    }

    @discardableResult
    package func cancel(_ timer: TimerID) -> Bool {
        state.withLock { $0.heap.cancel(timer) }
    }

    /// ``advance(to:)`` awaits each fired timer's work.
    package var awaitsTimerWork: Bool { true }
}

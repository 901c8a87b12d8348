/// What keeps an event system's timers: every deadline, grace period and gesture timer is
/// scheduled here, on the system's clock, and nothing else in the library reads the time.
///
/// Two kinds conform: ``ClockTimers``, which runs timers on any `Clock` (one task per system
/// sleeps until the earliest), and the test kit's manual clock, which fires them only when it is
/// advanced and then waits until the work they started has settled.
package protocol TimerScheduler: AnyObject, Sendable {
    /// The current instant of the clock.
    var now: EventSystem.Instant { get }

    /// Runs `work` once the clock reaches `deadline`, unless ``cancel(_:)`` removes it first.
    ///
    /// `work` is what the timer starts: it should do its part at once (cancel a route, wake a
    /// waiter) and may then await the end of what it started, which a test clock waits for
    /// before its `advance` returns. On a real clock nothing waits for it.
    func schedule(
        at deadline: EventSystem.Instant, for purpose: TimerPurpose,
        _ work: @escaping @Sendable () async -> Void
    ) -> TimerID

    /// Removes a timer that has not fired; returns whether it was still scheduled.
    @discardableResult
    func cancel(_ timer: TimerID) -> Bool

    /// Whether something awaits a fired timer's work (a test clock's `advance` does): then the
    /// work of a deadline's timer also waits until the send it stopped has published its outcome.
    var awaitsTimerWork: Bool { get }
}

/// What a timer is for, so that a test that leaves one scheduled can be told which.
package enum TimerPurpose: Sendable, CustomStringConvertible {
    /// The deadline of a send or post: it cancels the route when it passes.
    case deadline(of: EventID, event: any Event.Type)
    /// A system's shutdown grace period.
    case gracePeriod
    /// The wait of a send or post before its attempt `attempt` (see ``EventSystem/RetryPolicy``).
    case retry(of: EventID, attempt: Int)
    /// A task sleeping on the clock (``TimerScheduler/sleep(until:for:settle:)``, or a `sleep`
    /// on a test clock).
    case sleep
    /// Anything else, in words: a gesture recognizer's timer, an integration's timeout.
    case other(String)

    package var description: String {
        switch self {
        case .deadline(let id, let event): "the deadline of \(event) (event \(id))"
        case .gracePeriod: "the shutdown's grace period"
        case .retry(let id, let attempt): "the wait before attempt \(attempt) of event \(id)"
        case .sleep: "a sleep"
        case .other(let purpose): purpose
        }
    }
}

/// The identity of one scheduled timer, in scheduling order.
package struct TimerID: Hashable, Sendable, Comparable {
    /// The number of timers scheduled on its scheduler before it.
    package let sequence: UInt64

    package init(sequence: UInt64) {
        self.sequence = sequence
    }

    package static func < (lhs: TimerID, rhs: TimerID) -> Bool {
        lhs.sequence < rhs.sequence
    }
}

extension TimerScheduler {
    /// Whether `deadline` has passed by this clock.
    package func hasPassed(_ deadline: EventSystem.Instant) -> Bool {
        now >= deadline
    }

    /// Suspends until the clock reaches `deadline`; throws `CancellationError` at once if the
    /// task is cancelled first (the timer is removed).
    ///
    /// `settle` is what the wake-up starts that a test clock should wait for (see
    /// ``schedule(at:_:)``): it runs in the timer, after the sleeper was resumed. `scheduled`
    /// runs once the timer is scheduled (or at once, when none is needed).
    package func sleep(
        until deadline: EventSystem.Instant,
        for purpose: TimerPurpose = .sleep,
        settle: (@Sendable () async -> Void)? = nil,
        scheduled: (() -> Void)? = nil
    ) async throws(CancellationError) {
        // A deadline already reached needs no timer (a test clock would wait for an advance).
        if hasPassed(deadline) {
            scheduled?()
            if Task.isCancelled { throw CancellationError() }
            return
        }
        let sleeper = Sleeper()
        let woken: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                guard sleeper.park(continuation) else { return }
                let timer = schedule(at: deadline, for: purpose) {
                    sleeper.wake(true)
                    await settle?()
                }
                if !sleeper.keep(timer) { cancel(timer) }
                scheduled?()
            }
        } onCancel: {
            if let timer = sleeper.wake(false) { self.cancel(timer) }
        }
        if !woken { throw CancellationError() }
    }
}

extension TimerScheduler {
    /// One sleep of a loop that sleeps between pieces of work (a send's retries, a redrive's
    /// pauses), as ``sleep(until:for:settle:scheduled:)``, handing over from sleep to sleep on a
    /// test clock: once its timer wakes the sleeper, it waits for the ending returned here,
    /// which the caller ends when the work the wake-up started is done (the next sleep
    /// scheduled, or the loop over); `woken`, the previous sleep's, is ended once this sleep's
    /// timer is scheduled, or at once if the task is cancelled first. Returns whether the
    /// sleep ran to its end (`false`: cancelled), and the ending (`nil` on a real clock).
    package func sleepHandingOver(
        until deadline: EventSystem.Instant, for purpose: TimerPurpose, after woken: SendEnding?
    ) async -> (woke: Bool, settled: SendEnding?) {
        let waking = awaitsTimerWork ? SendEnding() : nil
        var settle: (@Sendable () async -> Void)?
        if let waking { settle = { await waking.wait() } }
        do {
            try await sleep(until: deadline, for: purpose, settle: settle, scheduled: { woken?.end() })
            return (true, waking)
        } catch {
            woken?.end()
            return (false, waking)
        }
    }
}

/// The one waiter of ``TimerScheduler/sleep(until:settle:)``: woken once, by its timer (`true`) or
/// by cancellation (`false`), whichever comes first.
private final class Sleeper: Sendable {
    private enum State {
        case idle
        case parked(CheckedContinuation<Bool, Never>, TimerID?)
        case done
    }

    private let state = Locked(State.idle)

    /// Parks the continuation; `false` (resumed already) when cancellation came first.
    func park(_ continuation: CheckedContinuation<Bool, Never>) -> Bool {
        let parked = state.withLock { state -> Bool in
            guard case .idle = state else { return false }
            state = .parked(continuation, nil)
            return true
        }
        if !parked { continuation.resume(returning: false) }
        return parked
    }

    /// Records the timer to cancel; `false` when the sleeper was woken meanwhile.
    func keep(_ timer: TimerID) -> Bool {
        state.withLock { state in
            guard case .parked(let continuation, nil) = state else { return false }
            state = .parked(continuation, timer)
            return true
        }
    }

    /// Wakes the sleeper with `fired`, once; returns its timer (to cancel, on cancellation).
    @discardableResult
    func wake(_ fired: Bool) -> TimerID? {
        let taken = state.withLock { state -> (CheckedContinuation<Bool, Never>?, TimerID?) in
            switch state {
            case .idle:
                state = .done
                return (nil, nil)
            case .parked(let continuation, let timer):
                state = .done
                return (continuation, timer)
            case .done:
                return (nil, nil)
            }
        }
        taken.0?.resume(returning: fired)
        return taken.1
    }
}

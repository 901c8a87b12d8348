/// The outcome of one ticket and the tasks waiting for it, as a pure state machine.
///
/// ```
///  pending ──settle()──▶ settled: the waiters are handed back, to resume with the outcome
///     │ waitForOutcome(): .mustWait(id) ──suspendWaiter()──▶ in line (or the outcome, if it came)
/// ```
///
/// It never suspends or resumes a task: ``TicketState`` holds it in a `Locked` and resumes what
/// it hands back outside the lock. A wait for an outcome ignores cancellation, like `Task.value`.
struct TicketOutcomeStateMachine {
    typealias Waiters = WaitingLine<Void, CheckedContinuation<Outcome, Never>>

    private enum State {
        /// No outcome yet; the tasks waiting for it.
        case pending(Waiters)
        /// The outcome, recorded once.
        case settled(Outcome)
        /// Held only inside a transition, while the payload of the real case is changed in place.
        case modifying
    }

    /// What ``settle(_:)`` did.
    enum SettleAction {
        /// The outcome is recorded: resume these waiters with it.
        case settled(resuming: [Waiters.Waiter])
        /// An outcome was recorded first: this one is ignored.
        case alreadySettled(Outcome)
    }

    /// What ``waitForOutcome()`` decided.
    enum WaitAction {
        /// The outcome is known.
        case outcome(Outcome)
        /// Suspend with this identity (``suspendWaiter(_:continuation:)``).
        case mustWait(WaiterID)
    }

    /// What ``suspendWaiter(_:continuation:)`` did.
    enum SuspendAction {
        /// The task waits for the outcome.
        case suspended
        /// The outcome came meanwhile: resume the task with it at once.
        case resume(Outcome)
    }

    private var state: State

    /// A machine holding `outcome` already, or waiting for one.
    init(outcome: consuming Outcome?) {
        // A switch, not `map`: the outcome is moved into the state, never copied.
        switch consume outcome {
        case .some(let outcome): state = .settled(outcome)
        case .none: state = .pending(Waiters())
        }
    }

    /// The outcome, once recorded.
    var outcome: Outcome? {
        if case .settled(let outcome) = state { return outcome }
        return nil
    }

    /// Records `outcome`, unless one was recorded first.
    mutating func settle(_ outcome: Outcome) -> SettleAction {
        switch state {
        case .pending(var waiters):
            state = .modifying
            let resuming = waiters.removeAll()
            state = .settled(outcome)
            return .settled(resuming: resuming)
        case .settled(let recorded):
            return .alreadySettled(recorded)
        case .modifying:
            preconditionFailure("settled during a transition")
        }
    }

    /// The outcome, if known; otherwise the identity to wait for it under.
    mutating func waitForOutcome() -> WaitAction {
        switch state {
        case .pending(var waiters):
            state = .modifying
            let id = waiters.makeID()
            state = .pending(waiters)
            return .mustWait(id)
        case .settled(let outcome):
            return .outcome(outcome)
        case .modifying:
            preconditionFailure("waited for during a transition")
        }
    }

    /// Suspends the task `id` (made by ``waitForOutcome()``) with `continuation` until the
    /// outcome is recorded, unless it was meanwhile.
    mutating func suspendWaiter(_ id: WaiterID, continuation: CheckedContinuation<Outcome, Never>)
        -> SuspendAction
    {
        switch state {
        case .pending(var waiters):
            state = .modifying
            defer { state = .pending(waiters) }
            switch waiters.suspend(id, element: (), continuation: continuation) {
            case .suspended: return .suspended
            case .cancelledBeforeSuspending: preconditionFailure("a wait for an outcome is never cancelled")
            }
        case .settled(let outcome):
            return .resume(outcome)
        case .modifying:
            preconditionFailure("suspended during a transition")
        }
    }
}

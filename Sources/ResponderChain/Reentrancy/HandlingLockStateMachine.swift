/// The rules of one ``HandlingLock``, as a pure state machine: who is inside, who waits in line,
/// and who is refused before entering the line.
///
/// ```
///  acquire ──free──▶ .acquired (inside)
///     │ held: noted as waiting (refusable through refuse())
///     ▼
///  enterLine ──free, or refused──▶ .admitted
///     │ held: .mustWait(id) ──suspend──▶ in line ──leave() of the last inside──▶ handed over
///     │                                   │ cancel: .cancelled, refuse: .wouldDeadlock
///     ▼
///  endWait: no longer waiting
/// ```
///
/// It never suspends or resumes a task: each transition returns what ``HandlingLock`` (which
/// holds it in a `Locked`) must resume once outside the lock.
struct HandlingLockStateMachine {
    typealias Participant = HandlingLock.Participant
    typealias Admission = HandlingLock.Admission
    typealias Line = WaitingLine<Participant, CheckedContinuation<Admission, Never>>

    /// The participants inside the lock; empty when the lock is free.
    private var inside: Set<ObjectIdentifier> = []
    /// Events waiting for the lock, each as the participant it will be, in arrival order.
    private var line = Line()
    /// The participants between the moment they found the lock held and the end of their
    /// wait (in ``line`` or about to enter it): the ones ``refuse(_:)`` may still refuse.
    private var waiting: Set<ObjectIdentifier> = []
    /// Participants refused before they entered ``line``: they leave instead of suspending.
    private var refused: Set<ObjectIdentifier> = []

    /// What ``acquire(_:)`` decided.
    enum AcquireAction {
        /// The lock was free: the participant is inside.
        case acquired
        /// The lock is held: the participant is noted as waiting; check the wait, then
        /// ``enterLine(_:)``.
        case mustWait
    }

    /// What ``enterLine(_:)`` decided.
    enum EnterLineAction {
        /// No need to wait: the lock was freed (``Admission/acquired``) or the participant was
        /// refused meanwhile (``Admission/wouldDeadlock``).
        case admitted(Admission)
        /// Suspend with this identity (``suspend(_:as:continuation:)``).
        case mustWait(WaiterID)
    }

    /// What ``suspend(_:as:continuation:)`` did.
    enum SuspendAction {
        /// The participant waits in line.
        case suspended
        /// Resume it at once with this admission (cancelled, refused, or the lock was freed).
        case resume(Admission)
    }

    // MARK: Reading

    /// The participants inside the lock now.
    var holders: Set<ObjectIdentifier> { inside }

    /// Whether `participant` is inside the lock now.
    func isInside(_ participant: Participant) -> Bool {
        inside.contains(ObjectIdentifier(participant))
    }

    /// The number of events waiting in line.
    var waitingCount: Int { line.count }

    // MARK: Transitions

    /// Adds `participant` to the acquisition `through` is inside, if it still is; `false` if
    /// not (the participant must acquire the lock itself).
    mutating func join(_ participant: Participant, through inside: Participant) -> Bool {
        guard self.inside.contains(ObjectIdentifier(inside)) else { return false }
        self.inside.insert(ObjectIdentifier(participant))
        return true
    }

    /// Takes the lock for `participant` if it is free; otherwise notes it as waiting.
    mutating func acquire(_ participant: Participant) -> AcquireAction {
        let id = ObjectIdentifier(participant)
        guard inside.isEmpty else {
            waiting.insert(id)
            return .mustWait
        }
        inside = [id]
        return .acquired
    }

    /// Lets `participant` through if the lock was freed or it was refused meanwhile; otherwise
    /// the identity to wait in line under.
    mutating func enterLine(_ participant: Participant) -> EnterLineAction {
        if let admission = admit(ObjectIdentifier(participant)) { return .admitted(admission) }
        return .mustWait(line.makeID())
    }

    /// Suspends `participant`, the waiter `id` (made by ``enterLine(_:)``), with `continuation`,
    /// unless it was cancelled before it got here, refused, or the lock was freed meanwhile.
    mutating func suspend(
        _ id: WaiterID, as participant: Participant, continuation: CheckedContinuation<Admission, Never>
    ) -> SuspendAction {
        if line.isCancelledBeforeSuspending(id) {
            line.withdraw(id)
            return .resume(.cancelled)
        }
        if let admission = admit(ObjectIdentifier(participant)) {
            line.withdraw(id)
            return .resume(admission)
        }
        switch line.suspend(id, element: participant, continuation: continuation) {
        case .suspended: return .suspended
        case .cancelledBeforeSuspending: return .resume(.cancelled)
        }
    }

    /// Cancels the waiter `id`: the continuation to resume as cancelled, if it was in line;
    /// otherwise it is remembered as cancelled for when it arrives.
    mutating func cancel(_ id: WaiterID) -> CheckedContinuation<Admission, Never>? {
        if case .resume(let waiter) = line.cancel(id) { return waiter.continuation }
        return nil
    }

    /// `participant`'s wait has ended (whichever way): it can no longer be refused.
    mutating func endWait(_ participant: Participant) {
        let id = ObjectIdentifier(participant)
        waiting.remove(id)
        refused.remove(id)
    }

    /// Refuses `participant`'s wait, if it is still waiting: the continuation to resume with
    /// ``Admission/wouldDeadlock`` if it is in line; otherwise it never enters it.
    mutating func refuse(_ participant: Participant) -> CheckedContinuation<Admission, Never>? {
        let id = ObjectIdentifier(participant)
        guard waiting.contains(id) else { return nil }
        if let waiter = line.popFirst(where: { $0 === participant }) { return waiter.continuation }
        refused.insert(id)
        return nil
    }

    /// Takes `participant` out; once no one is inside, hands the lock to the first event in line
    /// (the continuation to resume as ``Admission/acquired``), or frees it.
    mutating func leave(_ participant: Participant) -> CheckedContinuation<Admission, Never>? {
        inside.remove(ObjectIdentifier(participant))
        guard inside.isEmpty, let waiter = line.popFirst() else { return nil }
        inside = [ObjectIdentifier(waiter.element)]
        waiting.remove(ObjectIdentifier(waiter.element))
        return waiter.continuation
    }

    // MARK: Helpers

    /// The admission of the waiting participant `id` without waiting, if any: refused, or the
    /// lock is free (it is inside then).
    private mutating func admit(_ id: ObjectIdentifier) -> Admission? {
        if refused.remove(id) != nil { return .wouldDeadlock }
        guard inside.isEmpty else { return nil }
        inside = [id]
        return .acquired
    }
}

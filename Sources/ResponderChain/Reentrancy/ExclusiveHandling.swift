/// The FIFO locks of responders that handle one event at a time
/// (``Responder/handlesOneEventAtATime``), keyed by responder identity.
///
/// Actors are reentrant: while a handler awaits, the actor runs other work, including the
/// handlers of other events. A responder that opts out of that is visited under its lock: an
/// event that reaches it while another event's handler is running (or suspended) waits, and
/// waiting events enter in the order they reached the responder.
///
/// **Participants.** The hop that acquires the lock is its first *participant*. Each participant
/// is a token its task carries in a task-local while its handlers run. A nested send that reaches
/// the same responder from a task carrying a participant *that is still inside* joins the
/// acquisition as a participant of its own and passes through, instead of waiting for itself
/// (its own nested sends may join in turn). The lock is handed to the next waiting event only
/// when every participant has left. So:
///
/// - a nested send from a running handler, or from a task it started (structured or not), passes
///   through while that handler is still inside;
/// - a task that outlives the handler carries a token that is no longer inside: it waits like any
///   other event, even if it raced the handler's return (it then joined before the handler left,
///   and the responder is not handed on until it has finished);
/// - delivery tasks of posted events are detached and carry no tokens at all (see
///   ``PostOffice``).
///
/// A lock entry exists only while the lock is held or awaited, so responders pay nothing for it
/// when idle, and one that never opts in pays nothing at all.
final class ExclusiveHandling: Sendable {
    /// One participant in one acquisition of one responder's lock.
    final class Participant: Sendable {
        let responder: ObjectIdentifier

        init(_ responder: ObjectIdentifier) {
            self.responder = responder
        }
    }

    /// How a wait for a lock ended.
    enum Admission: Sendable {
        /// The lock was handed over (or was free).
        case acquired
        /// The waiting task was cancelled.
        case cancelled
        /// The lock is held by a handler that waits for the waiting event (see
        /// ``WaitForGraph``): it would never be handed over.
        case wouldDeadlock
    }

    /// Why ``withLock(of:_:)`` did not run its body.
    enum Refusal: Error {
        /// The task was cancelled while it waited.
        case cancelled
        /// Waiting would have been waiting for itself.
        case wouldDeadlock
    }

    typealias Line = WaitingLine<Participant, CheckedContinuation<Admission, Never>>

    struct State {
        /// The participants inside each locked responder.
        var inside: [ObjectIdentifier: Set<ObjectIdentifier>] = [:]
        /// Events waiting for a responder, each as the participant it will be.
        var line = Line()
        /// The participants between the moment they found the lock held and the end of their
        /// wait (in ``line`` or about to enter it): the ones ``refuse(_:)`` may still refuse.
        var waiting: Set<ObjectIdentifier> = []
        /// Participants refused before they entered ``line``: they leave instead of suspending.
        var refused: Set<ObjectIdentifier> = []
    }

    /// The locks of every responder in the process.
    static let shared = ExclusiveHandling()

    /// The participants of the hops the current task is running (innermost last).
    @TaskLocal private static var participations: [Participant] = []

    private let state = Locked(State())

    /// Runs `body` holding `responder`'s lock, or as a participant of the acquisition the current
    /// task is inside; waits (FIFO) while another event holds it.
    /// - Throws: ``Refusal/cancelled`` if the task is cancelled while it waits,
    ///   ``Refusal/wouldDeadlock`` if the lock is held by a handler that waits for this task's
    ///   event; `body` did not run.
    nonisolated(nonsending) func withLock<Result>(
        of responder: ObjectIdentifier,
        _ body: nonisolated(nonsending) () async -> Result
    ) async throws(Refusal) -> Result {
        let participant = Participant(responder)
        let joined = Self.participations.last { $0.responder == responder }.map {
            join(participant, through: $0)
        }
        if joined != true {
            switch await acquire(participant) {
            case .acquired: break
            case .cancelled: throw .cancelled
            case .wouldDeadlock: throw .wouldDeadlock
            }
        }
        defer { leave(participant) }
        return await Self.$participations.withValueKeepingIsolation(Self.participations + [participant], body)
    }

    /// Adds `participant` to the acquisition `through` is inside, if it still is.
    private func join(_ participant: Participant, through inside: Participant) -> Bool {
        state.withLock { state in
            guard state.inside[participant.responder]?.contains(ObjectIdentifier(inside)) == true else {
                return false
            }
            state.inside[participant.responder]?.insert(ObjectIdentifier(participant))
            return true
        }
    }

    /// Takes the lock for `participant`, waiting in line while it is held.
    ///
    /// A wait is first registered with the ``WaitForGraph`` when the waiting task holds anything
    /// others may wait for (a post it delivers, locks it is inside): if the holders of this lock
    /// wait, directly or not, for this task, the wait would never end, and the event is refused
    /// instead. A wait that closes such a loop later (a holder starting to wait for this task's
    /// post) refuses this waiter through ``refuse(_:)``.
    private nonisolated(nonsending) func acquire(_ participant: Participant) async -> Admission {
        let id = ObjectIdentifier(participant)
        let took = state.withLock { state -> Bool in
            guard state.inside[participant.responder] == nil else {
                state.waiting.insert(id)
                return false
            }
            state.inside[participant.responder] = [id]
            return true
        }
        if took { return .acquired }

        let sources = WaitForGraph.Sources.current()
        if !sources.isEmpty,
            await WaitForGraph.shared.beginWaiting(
                sources, for: .lock(participant.responder), refusable: participant) == .wouldDeadlock
        {
            state.withLock { _ = $0.waiting.remove(id) }
            return .wouldDeadlock
        }
        let admission = await state.wait(
            in: \State.line, as: participant,
            unless: { state in
                if state.refused.remove(id) != nil { return .wouldDeadlock }
                guard state.inside[participant.responder] == nil else { return nil }
                state.inside[participant.responder] = [id]
                return .acquired
            },
            cancelled: .cancelled)
        state.withLock { state in
            state.waiting.remove(id)
            state.refused.remove(id)
        }
        if !sources.isEmpty { WaitForGraph.shared.endWaiting(sources) }
        return admission
    }

    /// Refuses `participant`'s wait for its lock, if it is still waiting: it leaves the line
    /// with ``Admission/wouldDeadlock`` (or, not in the line yet, never enters it).
    func refuse(_ participant: Participant) {
        let id = ObjectIdentifier(participant)
        let waiter = state.withLock { state -> Line.Waiter? in
            guard state.waiting.contains(id) else { return nil }
            if let waiter = state.line.popFirst(where: { $0 === participant }) { return waiter }
            state.refused.insert(id)
            return nil
        }
        waiter?.continuation.resume(returning: .wouldDeadlock)
    }

    /// The participants inside `responder`'s lock now.
    func holders(of responder: ObjectIdentifier) -> Set<ObjectIdentifier> {
        state.withLock { $0.inside[responder] ?? [] }
    }

    /// The participants of the current task that are still inside their locks: what other
    /// events may be waiting for while this task waits.
    func currentHolds() -> [ObjectIdentifier] {
        let participations = Self.participations
        guard !participations.isEmpty else { return [] }
        return state.withLock { state in
            participations.compactMap { participant in
                let id = ObjectIdentifier(participant)
                return state.inside[participant.responder]?.contains(id) == true ? id : nil
            }
        }
    }

    /// Takes `participant` out; once no one is inside, hands the lock to the first event waiting
    /// for the same responder, or frees it.
    private func leave(_ participant: Participant) {
        let next = state.withLock { state -> Line.Waiter? in
            let responder = participant.responder
            state.inside[responder]?.remove(ObjectIdentifier(participant))
            guard state.inside[responder]?.isEmpty == true else { return nil }
            guard let waiter = state.line.popFirst(where: { $0.responder == responder }) else {
                state.inside[responder] = nil
                return nil
            }
            state.inside[responder] = [ObjectIdentifier(waiter.element)]
            state.waiting.remove(ObjectIdentifier(waiter.element))
            return waiter
        }
        next?.continuation.resume(returning: .acquired)
    }

    /// The number of events waiting for `responder`'s lock (for tests and diagnostics).
    func waitingCount(for responder: ObjectIdentifier) -> Int {
        state.withLock { $0.line.count { $0.responder == responder } }
    }
}

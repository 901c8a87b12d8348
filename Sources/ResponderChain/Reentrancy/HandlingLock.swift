/// The lock that makes one responder handle one event at a time (see
/// ``Responder/handlingLock``).
///
/// Actors are reentrant: while a handler awaits, the actor runs other work, including the
/// handlers of other events. A responder that opts out of that stores a lock of its own and is
/// visited under it: an event that reaches it while another event's handler is running (or
/// suspended) waits, and waiting events enter in the order they reached the responder.
///
/// ```swift
/// actor Ledger: Responder {
///     nonisolated let handlingLock: HandlingLock? = HandlingLock()
///     …
/// }
/// ```
///
/// Each lock keeps its own state and its own line of waiting events: taking, waiting for or
/// leaving one responder's lock never touches another's. Give each responder its own lock, and
/// return the same one every time (store it in a `let`).
///
/// The lock's machinery is internal to the package; a responder only stores it.
public final class HandlingLock: Sendable {
    /// Machinery: the types `Responder.handlesOneEventAtATime` may have. Only ``_NotDeclared``,
    /// the default, conforms; do not conform other types. (Declared here, in the class itself: a
    /// protocol nested in an extension in another file is not found by a whole-module build.)
    public protocol _Replacement {}

    /// Machinery: the type of `Responder.handlesOneEventAtATime` for a responder that does not
    /// declare the old property: an empty value that says nothing (read it and you get a
    /// deprecation warning naming `handlingLock`, never a trap).
    public struct _NotDeclared: _Replacement, Sendable {}

    // **Participants.** The hop that acquires the lock is its first participant, a token its task
    // carries in a task-local while its handlers run. A send that reaches the lock from a task
    // carrying a participant still inside joins the acquisition and passes through instead of
    // waiting for itself; the lock is handed on only when every participant has left. A task that
    // outlives its handler carries a token no longer inside and waits like any other event (one
    // that joined before the handler left keeps the lock until it finishes); posted events'
    // delivery tasks carry no tokens.

    /// A lock that no event holds or waits for.
    public init() {}

    /// One participant in one acquisition of one lock.
    final class Participant: Sendable {
        /// The lock this participant is (or waits to be) inside.
        let lock: HandlingLock

        init(_ lock: HandlingLock) {
            self.lock = lock
        }
    }

    /// How a wait for the lock ended.
    enum Admission: Sendable {
        /// The lock was handed over (or was free).
        case acquired
        /// The waiting task was cancelled.
        case cancelled
        /// The lock is held by a handler that waits for the waiting event (see
        /// ``WaitForGraph``): it would never be handed over.
        case wouldDeadlock
    }

    /// Why ``withLock(_:)`` did not run its body.
    enum Refusal: Error {
        /// The task was cancelled while it waited.
        case cancelled
        /// Waiting would have been waiting for itself.
        case wouldDeadlock
    }

    /// The participants of the hops the current task is running (innermost last), of any locks.
    @TaskLocal private static var participations: [Participant] = []

    /// Who is inside and who waits: a pure machine, whose transitions say what to resume.
    private let state = Locked(HandlingLockStateMachine())

    /// Runs `body` holding this lock, or as a participant of the acquisition the current task is
    /// inside; waits (FIFO) while another event holds it. `graph` is the ``WaitForGraph`` of the
    /// lock's responder's system, asked for only when the wait must be checked.
    /// - Throws: ``Refusal/cancelled`` if the task is cancelled while it waits,
    ///   ``Refusal/wouldDeadlock`` if the lock is held by a handler that waits for this task's
    ///   event; `body` did not run.
    nonisolated(nonsending) func withLock<Result>(
        graph: nonisolated(nonsending) () async -> WaitForGraph,
        _ body: nonisolated(nonsending) () async -> Result
    ) async throws(Refusal) -> Result {
        let participant = Participant(self)
        let joined = Self.participations.last { $0.lock === self }.map {
            join(participant, through: $0)
        }
        if joined != true {
            switch await acquire(participant, graph: graph) {
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
        state.withLock { $0.join(participant, through: inside) }
    }

    /// Takes the lock for `participant`, waiting in line while it is held.
    ///
    /// A wait is first registered with `graph` when the waiting task holds anything
    /// others may wait for (a post it delivers, locks it is inside): if the holders of this lock
    /// wait, directly or not, for this task, the wait would never end, and the event is refused
    /// instead. A wait that closes such a loop later (a holder starting to wait for this task's
    /// post) refuses this waiter through ``refuse(_:)``.
    private nonisolated(nonsending) func acquire(
        _ participant: Participant, graph: nonisolated(nonsending) () async -> WaitForGraph
    ) async -> Admission {
        guard case .mustWait = state.withLock({ $0.acquire(participant) }) else { return .acquired }

        let sources = WaitForGraph.Sources.current()
        let graph = sources.isEmpty ? nil : await graph()
        var registration: WaitForGraph.Registration?
        if let graph {
            switch await graph.beginWaiting(sources, for: .lock(self), refusable: participant) {
            case .wait(let registered):
                registration = registered
            case .wouldDeadlock:
                state.withLock { $0.endWait(participant) }
                return .wouldDeadlock
            }
        }
        let admission: Admission
        switch state.withLock({ $0.enterLine(participant) }) {
        case .admitted(let admitted): admission = admitted
        case .mustWait(let id): admission = await wait(id, as: participant)
        }
        state.withLock { $0.endWait(participant) }
        if let graph, let registration { graph.endWaiting(registration) }
        return admission
    }

    /// Suspends `participant`, the waiter `id` in this lock's line, until the lock is handed to
    /// it, it is refused, or its task is cancelled. The machine keeps the continuation; whoever
    /// takes it back resumes it outside the lock.
    private nonisolated(nonsending) func wait(_ id: WaiterID, as participant: Participant) async -> Admission
    {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Admission, Never>) in
                let action = state.withLock { $0.suspend(id, as: participant, continuation: continuation) }
                if case .resume(let admission) = action { continuation.resume(returning: admission) }
            }
        } onCancel: {
            state.withLock { $0.cancel(id) }?.resume(returning: .cancelled)
        }
    }

    /// Refuses `participant`'s wait for this lock, if it is still waiting: it leaves the line
    /// with ``Admission/wouldDeadlock`` (or, not in the line yet, never enters it).
    func refuse(_ participant: Participant) {
        state.withLock { $0.refuse(participant) }?.resume(returning: .wouldDeadlock)
    }

    /// The participants inside this lock now.
    func holders() -> Set<ObjectIdentifier> {
        state.withLock { $0.holders }
    }

    /// Whether `participant` is inside this lock now.
    private func isInside(_ participant: Participant) -> Bool {
        state.withLock { $0.isInside(participant) }
    }

    /// The participants of the current task that are still inside their locks: what other
    /// events may be waiting for while this task waits. Asks only the locks the task takes part
    /// in.
    static func currentHolds() -> [ObjectIdentifier] {
        participations.compactMap { participant in
            participant.lock.isInside(participant) ? ObjectIdentifier(participant) : nil
        }
    }

    /// Takes `participant` out; once no one is inside, hands the lock to the first event in this
    /// lock's line, or frees it.
    private func leave(_ participant: Participant) {
        state.withLock { $0.leave(participant) }?.resume(returning: .acquired)
    }

    /// The number of events waiting for this lock (for tests and diagnostics).
    var waitingCount: Int {
        state.withLock { $0.waitingCount }
    }
}

/// The shared state behind a ``Ticket``: the cancellation flag the system reads before every hop,
/// the outcome once known, and the tasks waiting for it.
///
/// It names its post's lane and office without keeping the office alive: the office holds the
/// post, and so its ticket, while the post is outstanding, and never the other way round. An
/// office outlives every post it holds (each lane's task holds it while it delivers), so once the
/// office is gone the post has ended and there is nothing left to cancel or to wait behind.
final class TicketState: Sendable {
    /// The outcome, once there is one. In an object of its own: the ticket of a post waits in
    /// its queue for as long as the post does, and an `Outcome` kept inline would more than
    /// double its size.
    private final class Recorded: Sendable {
        let outcome: Outcome
        init(_ outcome: Outcome) { self.outcome = outcome }
    }

    private struct State {
        var recorded: Recorded?
        var waiters = WaitingLine<Void, CheckedContinuation<Outcome, Never>>()
    }

    let eventID: EventID
    /// Read by the system before every hop of this event.
    let signal = CancellationSignal()
    /// Told when the ticket is cancelled, so that an event being delivered is stopped at once and
    /// a queued one leaves its queue; asked where the post waits (``postAhead()``).
    private weak let office: PostOffice?
    /// The post's lane in its office.
    private let lane: ObjectIdentifier
    private let state = Locked(State())

    init(eventID: EventID, office: PostOffice, lane: ObjectIdentifier) {
        self.eventID = eventID
        self.office = office
        self.lane = lane
    }

    var finishedOutcome: Outcome? {
        state.withLock { $0.recorded?.outcome }
    }

    func cancel() {
        guard finishedOutcome == nil, signal.cancel(.ticket) else { return }
        office?.cancel(self, lane: lane)
    }

    /// Cancels the post as ``cancel()`` does, and dead-letters it: returns once a queued post has
    /// ended so (one being delivered ends in its own task).
    nonisolated(nonsending) func abandon() async {
        guard finishedOutcome == nil, signal.cancel(.abandoned) else { return }
        await office?.abandon(self, lane: lane)
    }

    /// The outcome a ticket holds, and the tasks that were waiting for it: the proof that the
    /// ticket has its outcome (only ``settle(_:)`` makes one), with the wake-up still to do.
    struct Settlement: Sendable {
        /// The ticket's outcome: the one just recorded, or the one it held already.
        let outcome: Outcome
        /// The ticket: held until its post stops counting as outstanding, so that its identity
        /// is never another ticket's meanwhile.
        let ticket: TicketState
        fileprivate let waiters: [WaitingLine<Void, CheckedContinuation<Outcome, Never>>.Waiter]

        /// Wakes the tasks waiting for the outcome. Call it outside any lock.
        func resume() {
            for waiter in waiters { waiter.continuation.resume(returning: outcome) }
        }
    }

    /// Records the outcome, visible at once to ``finishedOutcome`` and to new waiters, and
    /// returns the tasks already waiting, to wake with ``Settlement/resume()``. Only the first
    /// call counts: a later one returns the outcome recorded first, with nobody to wake.
    ///
    /// The post office settles a ticket *before* its post stops counting as outstanding (so a
    /// completed drain means every ticket it waited for holds its outcome), and wakes the waiters
    /// *after* (so a task woken by the outcome finds the post's room free).
    func settle(_ outcome: Outcome) -> Settlement {
        state.withLock { state in
            if let recorded = state.recorded {
                return Settlement(outcome: recorded.outcome, ticket: self, waiters: [])
            }
            state.recorded = Recorded(outcome)
            return Settlement(
                outcome: outcome, ticket: self, waiters: state.waiters.removeAll())
        }
    }

    /// Records the outcome and wakes every waiter. Only the first call counts.
    func finish(_ outcome: Outcome) {
        settle(outcome).resume()
    }

    /// Waits for the outcome. Not cancelled with the waiting task, like `Task.value`.
    ///
    /// A task that holds something other events may wait for (it delivers a post, or runs inside
    /// a one-at-a-time responder) registers its wait with the ``WaitForGraph`` of the post's
    /// system first, so that a post that would wait for this task in turn is refused instead of
    /// waiting for ever.
    nonisolated(nonsending) func outcome() async -> Outcome {
        if let outcome = finishedOutcome { return outcome }
        let sources = WaitForGraph.Sources.current()
        guard !sources.isEmpty, let graph = office?.waitForGraph,
            case .wait(let registration) = await graph.beginWaiting(sources, for: .ticket(self))
        else { return await waitForOutcome() }
        let outcome = await waitForOutcome()
        graph.endWaiting(registration)
        return outcome
    }

    private nonisolated(nonsending) func waitForOutcome() async -> Outcome {
        await state.wait(in: \State.waiters, as: (), unless: { $0.recorded?.outcome }, cancelled: nil)
    }

    /// The post in flight on this post's lane, while this one is queued behind it.
    func postAhead() -> TicketState? {
        office?.postAhead(of: self, lane: lane)
    }

    /// Takes this post out of its lane's queue, if it is still queued, and ends it rejected
    /// (``Outcome/Rejection/Reason/wouldDeadlock``): the post ahead of it waits for it.
    nonisolated(nonsending) func refuseWhileQueued() async {
        await office?.refuseQueued(self, lane: lane)
    }
}

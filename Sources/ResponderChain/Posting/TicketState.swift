/// The shared state behind a ``Ticket``: the cancellation flag the system reads before every hop,
/// the outcome once known, and the tasks waiting for it.
final class TicketState: Sendable {
    private struct State {
        var outcome: Outcome?
        var waiters = WaitingLine<Void, CheckedContinuation<Outcome, Never>>()
    }

    let eventID: EventID
    /// Read by the system before every hop of this event.
    let signal = CancellationSignal()
    /// Told when the ticket is cancelled, so that an event being delivered is stopped at once.
    private let office: PostOffice
    private let lane: ObjectIdentifier
    private let state = Locked(State())

    init(eventID: EventID, office: PostOffice, lane: ObjectIdentifier) {
        self.eventID = eventID
        self.office = office
        self.lane = lane
    }

    var finishedOutcome: Outcome? {
        state.withLock { $0.outcome }
    }

    func cancel() {
        guard finishedOutcome == nil, signal.cancel(.ticket) else { return }
        office.cancel(self, lane: lane)
    }

    /// Records the outcome and wakes every waiter. Only the first call counts.
    func finish(_ outcome: Outcome) {
        let waiters = state.withLock {
            state -> [WaitingLine<Void, CheckedContinuation<Outcome, Never>>.Waiter] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            return state.waiters.removeAll()
        }
        for waiter in waiters { waiter.continuation.resume(returning: outcome) }
    }

    /// Waits for the outcome. Not cancelled with the waiting task, like `Task.value`.
    nonisolated(nonsending) func outcome() async -> Outcome {
        await state.wait(in: \State.waiters, as: (), unless: { $0.outcome }, cancelled: nil)
    }
}

/// The shared state behind a ``Ticket``: the cancellation flag the router reads before every hop,
/// the outcome once known, and the tasks waiting for it.
final class TicketState: Sendable {
    private enum State {
        case pending(waiters: [CheckedContinuation<Outcome, Never>])
        case finished(Outcome)
    }

    let eventID: EventID
    /// Read by the router before every hop of this event.
    let signal = CancellationSignal()
    /// Told when the ticket is cancelled, so that an event being delivered is stopped at once.
    private let office: PostOffice
    private let lane: ObjectIdentifier
    private let state = Locked(State.pending(waiters: []))

    init(eventID: EventID, office: PostOffice, lane: ObjectIdentifier) {
        self.eventID = eventID
        self.office = office
        self.lane = lane
    }

    var finishedOutcome: Outcome? {
        state.withLock { state in
            if case .finished(let outcome) = state { return outcome }
            return nil
        }
    }

    func cancel() {
        guard finishedOutcome == nil, signal.cancel() else { return }
        office.cancel(self, lane: lane)
    }

    /// Records the outcome and wakes every waiter. Only the first call counts.
    func finish(_ outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard case .pending(let waiters) = state else { return [] }
            state = .finished(outcome)
            return waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    func outcome() async -> Outcome {
        if let outcome = finishedOutcome { return outcome }
        return await withCheckedContinuation { continuation in
            let finished = state.withLock { state -> Outcome? in
                switch state {
                case .finished(let outcome):
                    return outcome
                case .pending(var waiters):
                    waiters.append(continuation)
                    state = .pending(waiters: waiters)
                    return nil
                }
            }
            if let finished { continuation.resume(returning: finished) }
        }
    }
}

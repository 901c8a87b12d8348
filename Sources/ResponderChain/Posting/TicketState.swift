import Synchronization

/// The shared state behind a ``Ticket``: the cancellation flag the system reads before every hop,
/// the outcome once known, and the tasks waiting for it.
///
/// It names its post's lane and system without keeping the system alive: the system's office
/// holds the post, and so its ticket, while the post is outstanding, and never the other way
/// round. The system outlives every post its office holds (each lane's task holds it while it
/// delivers), so once the system is gone the post has ended and there is nothing left to cancel
/// or to wait behind.
///
/// A queue may hold a hundred thousand tickets, so a ticket keeps only what a queued post needs:
/// its identifier, its flag, where its post waits, and one word for the rest (``Record``), made
/// once the outcome is known or a task waits for it.
final class TicketState: Sendable {
    /// The outcome, once there is one, and the tasks waiting for it.
    /// For a post its office stores, or one with an idempotency key, the record is made with
    /// the ticket and holds what the post's end must update (``PostLedger/Entry``): a plain
    /// post's ticket pays no word for it.
    private final class Record: Sendable {
        let state: Locked<TicketOutcomeStateMachine>
        let ledgerEntry: PostLedger.Entry?

        init(_ outcome: consuming Outcome?, ledgerEntry: PostLedger.Entry? = nil) {
            state = Locked(TicketOutcomeStateMachine(outcome: outcome))
            self.ledgerEntry = ledgerEntry
        }
    }

    let eventID: EventID
    /// Read by the system before every hop of this event.
    let signal = CancellationSignal()
    /// Its office is told when the ticket is cancelled, so that an event being delivered is
    /// stopped at once and a queued one leaves its queue; asked where the post waits
    /// (``postAhead()``).
    private weak let system: EventSystem?
    /// Made by the first of ``settle(_:)`` and ``outcome()`` that needs it; `nil` while a plain
    /// post is queued and nobody waits for it.
    private let record = AtomicLazyReference<Record>()
    /// The post's lane in its system's office. Declared last: its tag byte ends the object
    /// instead of padding the middle of it (a queued ticket is 65 bytes, an 80-byte heap chunk).
    private let lane: LaneKey

    init(eventID: EventID, system: EventSystem, lane: LaneKey, ledgerEntry: PostLedger.Entry? = nil) {
        self.eventID = eventID
        self.system = system
        self.lane = lane
        if let ledgerEntry { _ = record.storeIfNil(Record(nil, ledgerEntry: ledgerEntry)) }
    }

    /// What the post's end must update, for a stored post or one with an idempotency key.
    var ledgerEntry: PostLedger.Entry? { record.load()?.ledgerEntry }

    var finishedOutcome: Outcome? {
        record.load()?.state.withLock { $0.outcome }
    }

    func cancel() {
        guard finishedOutcome == nil, signal.cancel(.ticket) else { return }
        guard let system else { return }
        system.postOffice.cancel(self, lane: lane, system: system)
    }

    /// Cancels the post as ``cancel()`` does, and dead-letters it: returns once a queued post has
    /// ended so (one being delivered ends in its own task).
    nonisolated(nonsending) func abandon() async {
        guard finishedOutcome == nil, signal.cancel(.abandoned) else { return }
        guard let system else { return }
        await system.postOffice.abandon(self, lane: lane, system: system)
    }

    /// The outcome a ticket holds, and the tasks that were waiting for it: the proof that the
    /// ticket has its outcome (only ``settle(_:)`` makes one), with the wake-up still to do.
    struct Settlement: Sendable {
        /// The ticket's outcome: the one just recorded, or the one it held already.
        let outcome: Outcome
        /// The ticket: held until its post stops counting as outstanding, so that its identity
        /// is never another ticket's meanwhile.
        let ticket: TicketState
        fileprivate let waiters: [TicketOutcomeStateMachine.Waiters.Waiter]

        /// Wakes the tasks waiting for the outcome. Call it outside any lock.
        func resume() {
            for waiter in waiters { waiter.continuation.resume(returning: outcome) }
        }
    }

    /// Records the outcome, visible at once to ``finishedOutcome`` and to new waiters, and
    /// returns the tasks already waiting, to wake with ``Settlement/resume()``. Only the first
    /// call counts: a later one returns the outcome recorded first, with nobody to wake.
    ///
    /// The post office settles a ticket under its own lock, in the step where its post stops
    /// counting as outstanding (so a completed drain means every ticket it waited for holds its
    /// outcome, and whoever sees the outcome finds the post's room free), and wakes the waiters
    /// after, outside it.
    func settle(_ outcome: consuming Outcome) -> Settlement {
        if let record = record.load() { return settle(outcome, in: record) }
        // Nobody waits (the common case): the record is made with the outcome in it.
        let made = Record(outcome)
        let record = self.record.storeIfNil(made)
        guard record === made else { return settle(outcome, in: record) }
        return Settlement(outcome: outcome, ticket: self, waiters: [])
    }

    private func settle(_ outcome: Outcome, in record: Record) -> Settlement {
        let (settlement, isFirst) = record.state.withLock { state in
            switch state.settle(outcome) {
            case .alreadySettled(let recorded):
                (Settlement(outcome: recorded, ticket: self, waiters: []), false)
            case .settled(let waiters):
                (Settlement(outcome: outcome, ticket: self, waiters: waiters), true)
            }
        }
        if isFirst, let ledgerEntry = record.ledgerEntry { ended(with: outcome, entry: ledgerEntry) }
        return settlement
    }

    /// The post ended with `outcome`: its office's ledger forgets it and, if it is stored, its
    /// store records the end (unless the shutdown kept it or stopped it). (Takes neither the office's lock
    /// nor this ticket's: it may run under both.)
    private func ended(with outcome: Outcome, entry: PostLedger.Entry) {
        guard let office = system?.postOffice else { return }
        office.ledger.ended(self, entry: entry)
        // A post the shutdown kept, or stopped mid-way, stays unfinished in the store: the next
        // start delivers it (again).
        // Ended: a later claim of the key no longer moves the post to its lease.
        let (lease, ending) = entry.end()
        // So does a post read from the store that a shutting-down system refused to queue:
        // nobody here was told of it, and it was never delivered.
        let refusedUnread = entry.wasAdopted && outcome.rejectedDetails?.reason == .shuttingDown
        if entry.isStored, !outcome.wasKeptForNextStart, !outcome.wasEndedByShutdown, !refusedUnread {
            office.writer?.finish(
                EventSystem.StoredPost.Finish(
                    id: eventID, outcome: EventSystem.StoredOutcome(outcome), lease: lease,
                    deadLettered: outcome.goesToDeadLetters(signal: signal)))
        }
        // Its lease is released after its end is written, once every post under it has ended
        // (and so is each later claim's lease that waited for it).
        for lease in ending { office.consumer?.ended(under: lease) }
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
        guard !sources.isEmpty, let graph = system?.postOffice.waitForGraph,
            case .wait(let registration) = await graph.beginWaiting(sources, for: .ticket(self))
        else { return await waitForOutcome() }
        let outcome = await waitForOutcome()
        graph.endWaiting(registration)
        return outcome
    }

    private nonisolated(nonsending) func waitForOutcome() async -> Outcome {
        let record = record.load() ?? self.record.storeIfNil(Record(nil))
        let id: WaiterID
        switch record.state.withLock({ $0.waitForOutcome() }) {
        case .outcome(let outcome): return outcome
        case .mustWait(let waiter): id = waiter
        }
        // No cancellation handler: the wait ignores cancellation. The machine keeps the
        // continuation until ``settle(_:)`` hands it back, to resume outside the lock.
        return await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            if case .resume(let outcome) = record.state.withLock({
                $0.suspendWaiter(id, continuation: continuation)
            }) {
                continuation.resume(returning: outcome)
            }
        }
    }

    /// The post in flight on this post's lane, while this one is queued behind it.
    func postAhead() -> TicketState? {
        system?.postOffice.postAhead(of: self, lane: lane)
    }

    /// Takes this post out of its lane's queue, if it is still queued, and ends it rejected
    /// (``Outcome/Rejection/Reason/wouldDeadlock``): the post ahead of it waits for it.
    nonisolated(nonsending) func refuseWhileQueued() async {
        guard let system else { return }
        await system.postOffice.refuseQueued(self, lane: lane, system: system)
    }
}

/// A post that needs more than a queue place: its system stores it, or it carries an
/// idempotency key. Captured in the poster's task, as a plain post is.
struct KeptPost {
    let event: any Event
    let entry: any Responder
    let source: EventSource
    /// The sender's lane, for a post without a key in a system without a store.
    let lane: LaneKey
    let key: EventSystem.OrderingKey?
    let idempotencyKey: String?
    let options: SendOptions
    let capture: TraceCapture
}

/// The posts an office keeps track of beyond its queues: stored ones (accepted once the store
/// holds them; recovered after a restart) and those with an idempotency key.
extension PostOffice {
    /// Posts `kept`: claims its idempotency key, stores it if the system has a store (group
    /// commit: see ``StoreWriter``), then queues it as any post; returns its ticket.
    nonisolated(nonsending) func post(_ kept: KeptPost, isolation: (any Actor)?, system: EventSystem) async
        -> Ticket
    {
        let entryName = writer == nil ? nil : system.entries.withLock { $0.name(of: kept.entry) }
        // With a store, a post without a key is ordered by its sender's name, which a restart keeps.
        let lane = kept.key.map { LaneKey.key($0.name) } ?? entryName.map { LaneKey.key($0) } ?? kept.lane
        let ledgerEntry = PostLedger.Entry(idempotencyKey: kept.idempotencyKey)
        let ticket = TicketState(
            eventID: kept.capture.eventID, system: system, lane: lane, ledgerEntry: ledgerEntry)
        let post = PendingPost(
            event: kept.event, entry: kept.entry, source: kept.source, options: kept.options,
            capture: kept.capture, ticket: ticket, depth: Lineage.depthOfNewRoute)
        if let key = kept.idempotencyKey, let earlier = ledger.claim(key, for: ticket) {
            return Ticket(state: earlier)
        }
        if let writer,
            let refusal = await store(
                kept, as: ledgerEntry, entryName: entryName, writer: writer, system: system)
        {
            await Self.reject(post, reason: refusal, system: system)
        } else if let consumer {
            // A shared store's post is delivered by whichever consumer claims its key: here,
            // with this ticket, or elsewhere, and the ticket ends with what the store recorded.
            ledger.keepUnclaimed(post)
            consumer.watch(system: system)
            consumer.wake()
        } else {
            await accept(post, lane: lane, isolation: isolation, system: system)
        }
        return Ticket(state: ticket)
    }

    /// Stores `kept` through `writer` and returns `nil` once it is stored, or why it was not:
    /// its sender has no name, its options hold what a store cannot keep, it is a duplicate, or
    /// the store failed.
    private nonisolated(nonsending) func store(
        _ kept: KeptPost, as ledgerEntry: PostLedger.Entry, entryName: String?, writer: StoreWriter,
        system: EventSystem
    ) async -> Outcome.Rejection.Reason? {
        guard let entryName else { return .unnamedSender }
        if kept.options.start != .atSender {
            return .notStored(
                "a stored post starts at its sender; its options asked for \(kept.options.start)")
        }
        if !kept.options.info.isEmpty {
            let keys = kept.options.info.keyNames.joined(separator: ", ")
            return .notStored("a stored post carries no event information; its options held \(keys)")
        }
        let stored = EventSystem.StoredPost(
            id: kept.capture.eventID, key: kept.key ?? EventSystem.OrderingKey(entryName), entry: entryName,
            payload: .event(kept.event), idempotencyKey: kept.idempotencyKey,
            timeLeft: kept.options.deadline.map { $0 - system.now },
            traceContext: kept.capture.trace?.storedContext ?? [:])
        switch await writer.store(stored) {
        case .stored:
            ledgerEntry.markStored()
            _ = ledger.hold(stored.id, entry: ledgerEntry)
            return nil
        case .duplicate(let id, let outcome):
            return .duplicate(of: id, outcome: outcome)
        case .failed(let error):
            return .notStored(error)
        }
    }

    /// Queues posts already in the system's store (``EventSystem/deliverStored(_:)``), or claimed
    /// from its shared store, in order, skipping those the office holds; returns how many it
    /// queued or ended.
    ///
    /// A claim of a key this office held before (its lease lapsed, and this or another consumer
    /// claimed the key since) may return posts the office still holds, queued or being delivered
    /// under an earlier lease. Those whose places in the key's lane follow the claim's order move
    /// to the new lease where they are. The key's delivery under this claim stops at a held post
    /// that cannot move or is out of order: one whose lease is fixed (a fenced write of its
    /// delivery was checked against its lease, or it has ended), or one queued ahead of a post
    /// the claim puts before it (a post this claim queues anew, at the back of the lane, or one
    /// an earlier claim queued behind it after its own delivery here ended without finishing it,
    /// refused by the store's fence). That post stays under its lease, which the store's fence
    /// refuses, and neither it nor the key's later posts are delivered under this claim: the
    /// key's next claim, once this one's posts have ended, returns them again, in order.
    @discardableResult
    nonisolated(nonsending) func adopt(_ posts: [EventSystem.StoredPost], system: EventSystem) async -> Int {
        var adopted = 0
        /// For each key, the token of the claim that queued the key's latest post so far, in
        /// this claim's order (`Int64.max` once this claim queued one anew, at the lane's back);
        /// the keys it stopped delivering.
        var queuedUnder: [String: Int64] = [:]
        var stopped: Set<String> = []
        for stored in posts {
            let key = stored.key.name
            if stopped.contains(key) {
                if let lease = stored.lease { consumer?.ended(under: lease) }
                continue
            }
            if let post = ledger.takeUnclaimed(stored.id) {
                // This office stored it: it is delivered with its poster's ticket.
                post.ticket.ledgerEntry?.queued(under: stored.lease)
                queuedUnder[key] = .max
                await accept(post, lane: LaneKey.key(key), isolation: nil, system: system)
                adopted += 1
                continue
            }
            let ledgerEntry = PostLedger.Entry(idempotencyKey: stored.idempotencyKey, wasAdopted: true)
            ledgerEntry.markStored()
            ledgerEntry.queued(under: stored.lease)
            if let held = ledger.hold(stored.id, entry: ledgerEntry) {
                // Delivered here already: recovered twice, or claimed under an earlier lease.
                guard let lease = stored.lease else { continue }
                switch held.move(to: lease, notQueuedBefore: queuedUnder[key] ?? .min) {
                case .moved(let previous, let token):
                    queuedUnder[key] = token
                    consumer?.ended(under: previous)
                case .stays:
                    stopped.insert(key)
                    // The new lease waits for this post's end before it is released: claimed
                    // again at once, the key would come back stopped here again.
                    if !held.keep(lease) { consumer?.ended(under: lease) }
                case .notClaimed:
                    // Stored here a moment ago, and about to be kept for a claim: the key's
                    // next claim delivers it, with its poster's ticket.
                    stopped.insert(key)
                    consumer?.ended(under: lease)
                }
                continue
            }
            queuedUnder[key] = .max
            adopted += 1
            let entry = system.entries.withLock { $0.responder(named: stored.entry) }
            switch (stored.payload, entry) {
            case (.event(let event), let entry?):
                await adopt(stored, event: event, entry: entry, ledgerEntry: ledgerEntry, system: system)
            case (.event(let event), nil):
                await endUnreadable(
                    stored, event: event, error: .unknownEntry(stored.entry, of: stored.id), system: system)
            case (.undecodable(let undecodable), _):
                await endUnreadable(
                    stored, event: undecodable, error: .undecodableStoredPost(undecodable, id: stored.id),
                    system: system)
            }
        }
        return adopted
    }

    /// Queues the stored post `stored` of `event`, delivered from `entry` on its key's lane.
    private nonisolated(nonsending) func adopt(
        _ stored: EventSystem.StoredPost, event: any Event, entry: any Responder,
        ledgerEntry: PostLedger.Entry, system: EventSystem
    ) async {
        let source = EventSource.responder(entry)
        var options = SendOptions.default
        options.deadline = stored.timeLeft.map { system.now + $0 }
        let capture = TraceCapture.posting(
            event, from: source, through: system, options: options, eventID: stored.id,
            stored: stored.traceContext)
        let lane = LaneKey.key(stored.key.name)
        let ticket = TicketState(eventID: stored.id, system: system, lane: lane, ledgerEntry: ledgerEntry)
        if let key = stored.idempotencyKey { _ = ledger.claim(key, for: ticket) }
        let post = PendingPost(
            event: event, entry: entry, source: source, options: options, capture: capture, ticket: ticket,
            retrying: Self.retrying(from: stored, system: system))
        await accept(post, lane: lane, isolation: nil, system: system)
    }

    /// The earlier failures of `stored`, and when its next attempt may begin, on `system`'s
    /// clock; `nil` for a post never tried.
    private static func retrying(from stored: EventSystem.StoredPost, system: EventSystem) -> PostRetrying? {
        guard !stored.failedAttempts.isEmpty || stored.retryAfter != nil else { return nil }
        let now = system.now
        let earlier = stored.failedAttempts.map { attempt in
            DeadLetter.Attempt(
                number: attempt.number,
                outcome: Outcome(
                    recorded: attempt.outcome, eventID: stored.id, by: "an earlier attempt", system: system),
                endedAt: now - attempt.endedAgo)
        }
        return PostRetrying(earlier: earlier, notBefore: stored.retryAfter.map { now + $0 })
    }

    /// Ends the stored post `stored`, which cannot be delivered here, failed with `error`: to
    /// the tracer and the dead letters (with `event`, the unread bytes when it could not be
    /// read), and to the store; its key goes on past it.
    private nonisolated(nonsending) func endUnreadable(
        _ stored: EventSystem.StoredPost, event: any Event, error: ResponderChainError, system: EventSystem
    ) async {
        let failure = Outcome.Failure(
            path: Outcome.Path(eventID: stored.id, hops: 0, info: EventInfo()), error: error,
            responder: ResponderID(
                objectID: ObjectIdentifier(system), label: "stored entry '\(stored.entry)'"),
            hop: 0)
        let capture = TraceCapture(system: system, eventID: stored.id, trace: nil, postedAt: nil)
        let outcome = await Router.endUndelivered(
            .failed(failure), of: event, source: .relay(label: "store"), capture: capture,
            deadLetters: system.deadLetters, signal: CancellationSignal())
        ledger.forget(stored.id)
        writer?.finish(
            EventSystem.StoredPost.Finish(
                id: stored.id, outcome: EventSystem.StoredOutcome(outcome), lease: stored.lease,
                deadLettered: true))
        if let lease = stored.lease { consumer?.ended(under: lease) }
    }
}

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
        var entryName: String?
        if writer != nil {
            entryName = system.entries.withLock { $0.name(of: kept.entry) }
        }
        let lane: LaneKey =
            if let key = kept.key { .key(key.name) } else if let entryName { .key(entryName) } else {
                kept.lane
            }
        let ledgerEntry = PostLedger.Entry(idempotencyKey: kept.idempotencyKey)
        let ticket = TicketState(
            eventID: kept.capture.eventID, system: system, lane: lane, ledgerEntry: ledgerEntry)
        let post = PendingPost(
            event: kept.event, entry: kept.entry, source: kept.source, options: kept.options,
            capture: kept.capture,
            ticket: ticket, depth: Lineage.depthOfNewRoute)
        if let key = kept.idempotencyKey, let earlier = ledger.claim(key, for: ticket) {
            return Ticket(state: earlier)
        }
        if let writer {
            if let refusal = Self.refusal(of: kept, entryName: entryName) {
                await Self.reject(post, reason: refusal, system: system)
                return Ticket(state: ticket)
            }
            let stored = EventSystem.StoredPost(
                id: ticket.eventID, key: kept.key ?? EventSystem.OrderingKey(entryName ?? ""),
                entry: entryName ?? "",
                payload: .event(kept.event), idempotencyKey: kept.idempotencyKey,
                timeLeft: kept.options.deadline.map { $0 - system.now },
                traceContext: kept.capture.trace?.storedContext ?? [:])
            switch await writer.store(stored) {
            case .stored:
                ledgerEntry.markStored()
                _ = ledger.hold(ticket.eventID)
            case .duplicate(let id, let outcome):
                await Self.reject(post, reason: .duplicate(of: id, outcome: outcome), system: system)
                return Ticket(state: ticket)
            case .failed(let error):
                await Self.reject(post, reason: .notStored(error), system: system)
                return Ticket(state: ticket)
            }
        }
        await accept(post, lane: lane, isolation: isolation, system: system)
        return Ticket(state: ticket)
    }

    /// Why `kept` cannot be stored, if it cannot: its sender has no name, or its options hold
    /// what a store cannot keep.
    private static func refusal(of kept: KeptPost, entryName: String?) -> Outcome.Rejection.Reason? {
        guard entryName != nil else { return .unnamedSender }
        if kept.options.start != .atSender {
            return .notStored(
                "a stored post starts at its sender; its options asked for \(kept.options.start)")
        }
        if !kept.options.info.isEmpty {
            return .notStored(
                "a stored post carries no information (\(kept.options.info.keyNames.joined(separator: ", ")))"
            )
        }
        return nil
    }

    /// Queues posts already in the system's store (``EventSystem/deliverStored(_:)``), in order,
    /// skipping those the office holds.
    nonisolated(nonsending) func adopt(_ posts: [EventSystem.StoredPost], system: EventSystem) async {
        for stored in posts where ledger.hold(stored.id) {
            let entry = system.entries.withLock { $0.responder(named: stored.entry) }
            switch (stored.payload, entry) {
            case (.event(let event), let entry?):
                await adopt(stored, event: event, entry: entry, system: system)
            case (.event(let event), nil):
                await endUnreadable(
                    stored, event: event, error: .unknownEntry(stored.entry, of: stored.id), system: system)
            case (.undecodable(let undecodable), _):
                await endUnreadable(
                    stored, event: undecodable, error: .undecodableStoredPost(undecodable, id: stored.id),
                    system: system)
            }
        }
    }

    /// Queues the stored post `stored` of `event`, delivered from `entry` on its key's lane.
    private nonisolated(nonsending) func adopt(
        _ stored: EventSystem.StoredPost, event: any Event, entry: any Responder, system: EventSystem
    ) async {
        let source = EventSource.responder(entry)
        var options = SendOptions.default
        options.deadline = stored.timeLeft.map { system.now + $0 }
        let capture = TraceCapture.posting(
            event, from: source, through: system, options: options, eventID: stored.id,
            stored: stored.traceContext)
        let lane = LaneKey.key(stored.key.name)
        let ledgerEntry = PostLedger.Entry(idempotencyKey: stored.idempotencyKey)
        ledgerEntry.markStored()
        let ticket = TicketState(eventID: stored.id, system: system, lane: lane, ledgerEntry: ledgerEntry)
        if let key = stored.idempotencyKey { _ = ledger.claim(key, for: ticket) }
        let post = PendingPost(
            event: event, entry: entry, source: source, options: options, capture: capture, ticket: ticket)
        await accept(post, lane: lane, isolation: nil, system: system)
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
            EventSystem.StoredPost.Finish(id: stored.id, outcome: EventSystem.StoredOutcome(outcome)))
    }
}

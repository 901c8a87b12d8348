import Synchronization

/// What a post office remembers of the posts that carry more than a queue place: those it
/// stored (by identifier, so that a recovery or an outbox does not deliver them twice) and those
/// with an idempotency key (so that a retry while the first is outstanding gets its ticket).
final class PostLedger: Sendable {
    /// What a ticket of such a post carries, so that its end can be recorded.
    final class Entry: Sendable {
        let idempotencyKey: String?
        private let stored = Atomic<Bool>(false)

        init(idempotencyKey: String?) {
            self.idempotencyKey = idempotencyKey
        }

        /// Whether the post is in the office's store (its end is written there).
        var isStored: Bool { stored.load(ordering: .acquiring) }

        /// The post is in the store.
        func markStored() {
            stored.store(true, ordering: .releasing)
        }
    }

    private struct State {
        var stored: Set<EventID> = []
        var byIdempotencyKey: [String: TicketState] = [:]
    }

    private let state = Mutex(State())

    /// Records `ticket` under its idempotency key, or returns the outstanding ticket that holds
    /// the key already.
    func claim(_ key: String, for ticket: TicketState) -> TicketState? {
        state.withLock { state in
            if let earlier = state.byIdempotencyKey[key] { return earlier }
            state.byIdempotencyKey[key] = ticket
            return nil
        }
    }

    /// Records that the stored post `id` is held by the office; `false` if it already was.
    func hold(_ id: EventID) -> Bool {
        state.withLock { $0.stored.insert(id).inserted }
    }

    /// Forgets the stored post `id`, which ended without a ticket.
    func forget(_ id: EventID) {
        _ = state.withLock { $0.stored.remove(id) }
    }

    /// The post of `ticket`, described by `entry`, has ended.
    func ended(_ ticket: TicketState, entry: Entry) {
        state.withLock { state in
            if let key = entry.idempotencyKey, state.byIdempotencyKey[key] === ticket {
                state.byIdempotencyKey[key] = nil
            }
            if entry.isStored { state.stored.remove(ticket.eventID) }
        }
    }
}

import Synchronization

/// What a post office remembers of the posts that carry more than a queue place: those it
/// stored (by identifier, so that a recovery or an outbox does not deliver them twice), those
/// with an idempotency key (so that a retry while the first is outstanding gets its ticket), and,
/// in a system on a shared store, the posts it stored that no consumer has claimed yet (so that
/// the ticket of such a post ends when it is delivered here or finished elsewhere).
final class PostLedger: Sendable {
    /// What a ticket of such a post carries, so that its end can be recorded.
    final class Entry: Sendable {
        /// Where the post's end is written.
        enum Keeping: UInt8, AtomicRepresentable {
            /// Nowhere: the post is not in the store.
            case notStored
            /// In the store, by this office.
            case stored
            /// Nowhere: another consumer of the shared store finished it and wrote its end.
            case finishedElsewhere
        }

        let idempotencyKey: String?
        /// Whether the post was read from the store (recovered, claimed, or written by an outbox)
        /// rather than posted through this office: no poster here was told of it.
        let wasAdopted: Bool
        private let keeping = Atomic<Keeping>(.notStored)
        /// The lease the post is held under, once this office claimed it from a shared store.
        private let held = Locked(HeldLease())
        /// Whether the post's lease was found lost (``markLeaseLost()``).
        private let lost = Atomic<Bool>(false)

        init(idempotencyKey: String?, wasAdopted: Bool = false) {
            self.idempotencyKey = idempotencyKey
            self.wasAdopted = wasAdopted
        }

        /// Whether the post is in the office's store and its end is written there.
        var isStored: Bool { keeping.load(ordering: .acquiring) == .stored }

        /// The post is in the store.
        func markStored() {
            keeping.store(.stored, ordering: .releasing)
        }

        /// Whether the post was stored, whoever writes its end.
        var wasStored: Bool { keeping.load(ordering: .acquiring) != .notStored }

        /// Another consumer finished the post: its end is not written again.
        func markFinishedElsewhere() {
            keeping.store(.finishedElsewhere, ordering: .releasing)
        }

        /// The post is queued in its lane under `lease`, if it was claimed from a shared store.
        func queued(under lease: EventSystem.Lease?) {
            held.withLock { $0.queued(under: lease) }
        }

        /// Holds the post under `lease`, a later claim of its key, unless its lease is fixed or
        /// it is out of order there (see ``HeldLease/move(to:notQueuedBefore:)``).
        func move(to lease: EventSystem.Lease, notQueuedBefore token: Int64) -> HeldLease.Move {
            held.withLock { $0.move(to: lease, notQueuedBefore: token) }
        }

        /// The lease the post is held under now, if it was claimed.
        var lease: EventSystem.Lease? { held.withLock { $0.lease } }

        /// Whether a store's fence refused a write of the post's delivery: its lease is lost
        /// (``EventSystem/Lease/lost(delivering:)``).
        var leaseLost: Bool { lost.load(ordering: .acquiring) }

        /// A store's fence refused a write of the post's delivery.
        func markLeaseLost() {
            lost.store(true, ordering: .releasing)
        }

        /// Fixes the post under its lease and returns it (see ``HeldLease/fix()``).
        func fix() -> EventSystem.Lease? {
            held.withLock { $0.fix() }
        }

        /// Keeps `lease` until the post ends; `false` if it has ended already.
        func keep(_ lease: EventSystem.Lease) -> Bool {
            held.withLock { $0.keep(lease) }
        }

        /// The post ends: the lease its end goes out under, and every lease that ends with it.
        func end() -> (lease: EventSystem.Lease?, ending: [EventSystem.Lease]) {
            held.withLock { $0.end() }
        }
    }

    private struct State {
        /// The stored posts the office holds (queued, being delivered, or waiting for a claim).
        var stored: [EventID: Entry] = [:]
        var byIdempotencyKey: [String: TicketState] = [:]
        /// Posts this office stored in a shared store and that no consumer here claimed yet.
        var unclaimed: [EventID: PendingPost] = [:]
    }

    private let state = Locked(State())

    /// Records `ticket` under its idempotency key, or returns the outstanding ticket that holds
    /// the key already.
    func claim(_ key: String, for ticket: TicketState) -> TicketState? {
        state.withLock { state in
            if let earlier = state.byIdempotencyKey[key] { return earlier }
            state.byIdempotencyKey[key] = ticket
            return nil
        }
    }

    /// Records that the stored post `id`, described by `entry`, is held by the office; returns
    /// the entry it was held with if it already was (and then records nothing).
    func hold(_ id: EventID, entry: Entry) -> Entry? {
        state.withLock { state in
            if let held = state.stored[id] { return held }
            state.stored[id] = entry
            return nil
        }
    }

    /// Forgets the stored post `id`, which ended without a ticket.
    func forget(_ id: EventID) {
        _ = state.withLock { $0.stored.removeValue(forKey: id) }
    }

    /// Keeps `post`, stored in a shared store, until a consumer claims it.
    func keepUnclaimed(_ post: PendingPost) {
        state.withLock { $0.unclaimed[post.ticket.eventID] = post }
    }

    /// Takes the post `id` this office stored and nobody claimed yet, if it is one.
    func takeUnclaimed(_ id: EventID) -> PendingPost? {
        state.withLock { $0.unclaimed.removeValue(forKey: id) }
    }

    /// Up to `limit` identifiers of posts this office stored and nobody claimed yet; of those
    /// among `ids` when given.
    func unclaimedIDs(among ids: [EventID]? = nil, limit: Int = .max) -> [EventID] {
        state.withLock { state in
            guard let ids else { return Array(state.unclaimed.keys.prefix(limit)) }
            let unclaimed = state.unclaimed
            return Array(ids.lazy.filter { unclaimed[$0] != nil }.prefix(limit))
        }
    }

    /// Takes every post this office stored and nobody claimed yet.
    func takeAllUnclaimed() -> [PendingPost] {
        state.withLock { state in
            defer { state.unclaimed.removeAll() }
            return Array(state.unclaimed.values)
        }
    }

    /// The post of `ticket`, described by `entry`, has ended.
    func ended(_ ticket: TicketState, entry: Entry) {
        state.withLock { state in
            if let key = entry.idempotencyKey, state.byIdempotencyKey[key] === ticket {
                state.byIdempotencyKey[key] = nil
            }
            if entry.wasStored { state.stored.removeValue(forKey: ticket.eventID) }
        }
    }
}

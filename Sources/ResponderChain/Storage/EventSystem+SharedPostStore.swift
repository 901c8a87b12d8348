extension EventSystem {
    /// A ``EventSystem/PostStore`` that several systems, in several processes, consume together:
    /// each post is delivered by one of them, and the posts of one ordering key by one consumer
    /// at a time, in post order.
    ///
    /// A consumer claims keys, not posts. ``claim(limit:)`` leases keys that no live consumer
    /// holds and returns their unfinished posts, oldest first, each carrying its key's
    /// ``EventSystem/Lease``. The store keeps the leases it gave alive (a heartbeat) until they
    /// are released or the store is closed, so a consumer that is only slow keeps its keys; one
    /// whose process died stops renewing, and after the lease's time another consumer claims
    /// the key and delivers again what was not finished (delivery is at least once).
    ///
    /// Every claim of a key carries a larger token than the one before (a fencing token). The
    /// store records a ``EventSystem/StoredPost/Finish`` only if its lease is still the key's
    /// current one: a consumer that was frozen past its lease and wakes up cannot finish posts
    /// that another consumer now owns. An effect written in the store's own transactions (an
    /// inbox) is fenced the same way, against the lease its post is delivered under
    /// (``EventSystem/Lease/fix(delivering:)``).
    ///
    /// ```swift
    /// let store = try await PostgresPostStore(…)      // ResponderChainPostgres
    /// let system = EventSystem(storage: .shared(store))
    /// try system.register(ordersDesk, as: "orders")
    /// system.startConsuming()                          // claims, delivers, finishes, releases
    /// ```
    ///
    /// The post office is the only caller: it claims when the store signals new posts
    /// (``signals()``), when its own posts were stored, when a lease it held drained, and on
    /// its poll interval in case a signal was lost; it releases a lease once every post it
    /// claimed under it has finished, and every lease it holds when the system shuts down.
    public protocol SharedPostStore: PostStore {
        /// Leases up to `limit` keys that have unfinished posts and that no consumer holds (or
        /// whose lease expired), and returns their unfinished posts in the order they were
        /// stored, each with ``EventSystem/StoredPost/lease`` set. At most `limit` posts in all.
        /// An empty array when nothing is claimable.
        func claim(limit: Int) async throws -> [EventSystem.StoredPost]

        /// Ends `leases`: the store stops renewing them, and their keys' unfinished posts go to
        /// the next consumer that claims. A lease that is no longer its key's current one is
        /// ignored.
        func release(_ leases: [EventSystem.Lease]) async throws

        /// What the store learns of other consumers' work, as it happens: posts stored
        /// (anywhere) that may be claimable, and posts finished (anywhere). Best effort: a
        /// signal may be lost, which the post office's polling covers. Each call returns a new
        /// sequence; it finishes when the store is closed.
        func signals() -> AsyncStream<EventSystem.StoreSignal>
    }

    /// A consumer's claim on an ordering key of a ``EventSystem/SharedPostStore``: while it is
    /// current, the key's posts are delivered by this consumer only.
    public struct Lease: Hashable, Sendable, CustomStringConvertible {
        /// The key.
        public let key: OrderingKey
        /// The fencing token: larger for every new claim of the key. A store refuses a finish
        /// whose token is not the key's current one.
        public let token: Int64

        /// The lease `token` on `key`.
        public init(key: OrderingKey, token: Int64) {
            self.key = key
            self.token = token
        }

        /// `orders-7@12`.
        public var description: String { "\(key.name)@\(token)" }

        /// Fixes the lease of the post `id` for the rest of its delivery, and returns it: if
        /// `id` is the post being delivered in the current task (by its handlers, or a task they
        /// started while it runs) and it was claimed from a shared store; `nil` otherwise.
        ///
        /// A store's fenced write calls it, and keeps the write only while this lease is the
        /// key's current one. Until then, a later claim of the key by the same consumer may move
        /// the post to its lease (when the post is still in order there); from then on, the
        /// post's end is written under the lease returned here, so that a write refused under a
        /// lapsed lease is never followed by a finish under a newer one.
        ///
        /// ```swift
        /// if let lease = EventSystem.Lease.fix(delivering: context.eventID) {
        ///     // Lock the key's row; refuse the write unless `lease.token` is its token.
        /// }
        /// ```
        public static func fix(delivering id: EventID) -> Lease? {
            guard let ticket = PostOffice.runningDelivery, ticket.eventID == id else { return nil }
            return ticket.ledgerEntry?.fix()
        }

        /// Tells the post office that the lease of the post `id`, being delivered in the current
        /// task, is lost: a store's fenced write refused the write under the lease
        /// ``fix(delivering:)`` returned (another consumer holds the key now, and delivers the
        /// post again). The attempt under way uses up no try of a ``EventSystem/RetryPolicy``:
        /// no failure is recorded for it and it is not tried again here. Does nothing outside
        /// that post's delivery.
        ///
        /// ```swift
        /// guard current.token == lease.token else {
        ///     EventSystem.Lease.lost(delivering: context.eventID)
        ///     throw StoreError.lostLease
        /// }
        /// ```
        public static func lost(delivering id: EventID) {
            guard let ticket = PostOffice.runningDelivery, ticket.eventID == id else { return }
            ticket.ledgerEntry?.markLeaseLost()
        }
    }

    /// What a ``EventSystem/SharedPostStore`` tells its consumers (``SharedPostStore/signals()``).
    public enum StoreSignal: Hashable, Sendable {
        /// Posts were stored that may be claimable.
        case posted
        /// These posts finished, here or in another process.
        case finished([EventID])
    }
}

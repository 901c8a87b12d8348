internal import Foundation
public import GRDB
public import ResponderChain
internal import ResponderChainStoredEvents

extension SQLitePostStore {
    /// Posts written inside the caller's transaction (``SQLitePostStore/write(delivering:_:)``):
    /// they exist only if the transaction commits, so that a change to the application's tables
    /// and the events announcing it are kept or lost together.
    ///
    /// An outbox lives as long as its transaction; it is not kept or shared.
    public final class Outbox {
        private let db: Database
        private let events: StoredEvents
        private let now: Int64
        private let encoder = JSONEncoder()
        /// The posts written, in order.
        private(set) var posts: [EventSystem.StoredPost] = []

        init(db: Database, events: StoredEvents, now: Int64) {
            self.db = db
            self.events = events
            self.now = now
        }

        /// Writes a post of `event` to the entry named `entry` (see `EventSystem.register(_:as:)`)
        /// on ordering key `key`, and returns its identifier. With an idempotency key already held,
        /// nothing is written and the earlier post's identifier is returned.
        ///
        /// - Throws: ``SQLitePostStoreError/unregisteredEvent(typeName:)`` for an event whose type
        ///   is not registered in the store's ``StoredEvents``; throwing out of the transaction
        ///   then rolls it back.
        @discardableResult
        public func post(
            _ event: some Event, to entry: String, key: EventSystem.OrderingKey,
            idempotencyKey: String? = nil,
            timeLeft: Duration? = nil, traceContext: [String: String] = [:]
        ) throws -> EventID {
            let post = EventSystem.StoredPost(
                id: EventID(), key: key, entry: entry, payload: .event(event), idempotencyKey: idempotencyKey,
                timeLeft: timeLeft, traceContext: traceContext)
            switch try PostRow(post, events: events, encoder: encoder, now: now).insert(in: db, now: now) {
            case .stored:
                posts.append(post)
                return post.id
            case .duplicate(let earlier, _):
                return earlier
            }
        }
    }

    /// Runs `body` in one transaction on the store's file, with an ``Outbox`` whose posts are
    /// written in that transaction; once it commits, hands them to `system` to deliver
    /// (`EventSystem.deliverStored(_:)`). Without a system, they wait in the store for the next
    /// `recoverStoredPosts()`. If `body` throws, nothing it wrote or posted is kept.
    ///
    /// ```swift
    /// try await store.write(delivering: system) { db, outbox in
    ///     try db.execute(sql: "UPDATE stock SET count = count - 1 WHERE sku = ?", arguments: [sku])
    ///     try outbox.post(StockReserved(sku: sku), to: "orders", key: "order-\(orderID)")
    /// }
    /// ```
    @discardableResult
    public func write<T: Sendable>(
        delivering system: EventSystem? = nil, _ body: @escaping @Sendable (Database, Outbox) throws -> T
    ) async throws -> T {
        let now = wallClock.nanoseconds
        let events = self.events
        let (result, posts) = try await transaction { db in
            let outbox = Outbox(db: db, events: events, now: now)
            let result = try body(db, outbox)
            return (result, outbox.posts)
        }
        if let system, !posts.isEmpty { await system.deliverStored(posts) }
        return result
    }
}

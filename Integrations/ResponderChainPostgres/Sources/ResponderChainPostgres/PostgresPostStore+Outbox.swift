internal import Foundation
internal import Logging
public import PostgresNIO
public import ResponderChain

extension PostgresPostStore {
    /// Posts written inside the application's transaction (``PostgresPostStore/write(_:)``):
    /// they exist only if the transaction commits, so that a change to the application's tables
    /// and the events announcing it are kept or lost together. Once it commits, whichever
    /// consumer claims their keys delivers them.
    ///
    /// An outbox lives as long as its transaction; it is not kept or shared.
    public final class Outbox {
        private let connection: PostgresConnection
        private let store: PostgresPostStore
        /// How many posts it wrote.
        private(set) var written = 0

        init(connection: PostgresConnection, store: PostgresPostStore) {
            self.connection = connection
            self.store = store
        }

        /// Writes a post of `event` to the entry named `entry` (see `EventSystem.register(_:as:)`)
        /// on ordering key `key`, and returns its identifier. With an idempotency key already
        /// held, nothing is written and the earlier post's identifier is returned.
        ///
        /// - Throws: ``PostgresPostStoreError/unregisteredEvent(typeName:)`` for an event whose
        ///   type is not registered in the store's `StoredEvents`; throwing out of the
        ///   transaction then rolls it back.
        @discardableResult
        public func post(
            _ event: some Event, to entry: String, key: EventSystem.OrderingKey,
            idempotencyKey: String? = nil,
            timeLeft: Duration? = nil, traceContext: [String: String] = [:]
        ) async throws -> EventID {
            let post = EventSystem.StoredPost(
                id: EventID(), key: key, entry: entry, payload: .event(event), idempotencyKey: idempotencyKey,
                timeLeft: timeLeft, traceContext: traceContext)
            let rows = try await store.rows(for: [post])
            switch try await PostgresPostStore.insert(rows, on: connection, logger: store.logger).first {
            case .duplicate(let earlier, _): return earlier
            case .stored, nil:
                written += 1
                return post.id
            }
        }
    }

    /// Runs `body` in one transaction, with an ``Outbox`` whose posts are written in it, and
    /// notifies the consumers once it commits. If `body` throws, nothing it wrote or posted is
    /// kept.
    ///
    /// ```swift
    /// try await store.write { connection, outbox in
    ///     try await connection.query("UPDATE stock SET count = count - 1 WHERE sku = \(sku)", logger: logger)
    ///     try await outbox.post(StockReserved(sku: sku), to: "orders", key: "order-\(orderID)")
    /// }
    /// ```
    @discardableResult
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Outbox) async throws -> T
    ) async throws -> T {
        try await transaction("write with an outbox") { connection in
            let outbox = Outbox(connection: connection, store: self)
            let result = try await body(connection, outbox)
            return result
        }
    }
}

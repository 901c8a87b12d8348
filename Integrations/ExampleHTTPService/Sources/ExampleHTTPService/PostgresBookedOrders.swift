public import Logging
internal import PostgresNIO
public import ResponderChain
public import ResponderChainPostgres

/// The orders of a durable ``OrderBook`` and its stock in the PostgreSQL database of its event
/// system's store, shared by every instance of the service: an order is booked and its event
/// marked handled in one transaction (`PostgresPostStore.inbox`, fenced by the key's lease), so
/// that a post delivered again, by this instance or by one that took its key over, books nothing
/// twice.
///
/// ```swift
/// let booked = PostgresBookedOrders(store: store, logger: logger)
/// try await booked.prepare(stock: ["A-1": 100])   // once the client runs
/// let number = try await booked.book(order, user: "alice", requestID: "r-1", eventID: context.eventID)
/// ```
public struct PostgresBookedOrders: OrderLedger {
    /// The store whose database holds the orders.
    public let store: PostgresPostStore
    /// Where the queries log.
    public let logger: Logger

    /// The orders in `store`'s database; call ``prepare(stock:)`` before the first booking.
    public init(store: PostgresPostStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Creates the orders' tables if needed, and stocks each article of `stock` the database
    /// does not know yet (a restart, or another instance, keeps what was sold). Safe to run in
    /// several instances at once.
    public func prepare(stock: [String: Int]) async throws {
        try await store.client.withTransaction(logger: logger) { connection in
            try await connection.query(
                "SELECT pg_advisory_xact_lock(hashtext('example_orders_schema'))", logger: logger)
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS example_booked_order (
                    number bigserial PRIMARY KEY, event_id text, sku text NOT NULL, quantity bigint NOT NULL,
                    username text, request_id text, booked_by text)
                """, logger: logger)
            try await connection.query(
                "CREATE INDEX IF NOT EXISTS example_booked_order_event ON example_booked_order (event_id)",
                logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS example_stock (sku text PRIMARY KEY, available bigint NOT NULL)",
                logger: logger)
            for (sku, available) in stock {
                try await connection.query(
                    "INSERT INTO example_stock (sku, available) VALUES (\(sku), \(available)) ON CONFLICT DO NOTHING",
                    logger: logger)
            }
        }
    }

    /// Books `order` and returns its number, or `nil` for an article the book does not sell;
    /// throws ``OutOfStock``. With `eventID`, the booking goes through the store's inbox: an
    /// event booked already books nothing again and returns the number it was booked under; a
    /// key leased by another instance now throws `PostgresPostStoreError.lostLease` and books
    /// nothing (that instance books it).
    public func book(_ order: PlaceOrder, user: String?, requestID: String?, eventID: EventID?) async throws
        -> Int?
    {
        let logger = self.logger
        let consumer = store.consumer
        let write: @Sendable (PostgresConnection) async throws -> Void = { connection in
            var available: Int?
            for try await (count, ) in try await connection.query(
                "SELECT available FROM example_stock WHERE sku = \(order.sku) FOR UPDATE", logger: logger
            ).decode((Int.self,)) {
                available = count
            }
            guard let available else { throw NotSold() }
            guard order.quantity <= available else { throw OutOfStock(sku: order.sku) }
            try await connection.query(
                "UPDATE example_stock SET available = available - \(order.quantity) WHERE sku = \(order.sku)",
                logger: logger)
            try await connection.query(
                """
                INSERT INTO example_booked_order (event_id, sku, quantity, username, request_id, booked_by)
                VALUES (\(eventID.map(\.debugDescription)), \(order.sku), \(order.quantity), \(user), \(requestID),
                    \(consumer))
                """, logger: logger)
        }
        do {
            guard let eventID else {
                do {
                    return try await store.client.withTransaction(logger: logger) { connection in
                        try await write(connection)
                        var number: Int?
                        for try await (last, ) in try await connection.query(
                            "SELECT lastval()", logger: logger
                        )
                        .decode((Int.self,)) {
                            number = last
                        }
                        return number
                    }
                } catch let error as PostgresTransactionError {
                    // The booking's own error (out of stock, not sold), as the inbox throws it.
                    throw error.closureError ?? error
                }
            }
            try await store.inbox.handleOnce(eventID, write)
            return try await number(bookedBy: eventID)
        } catch is NotSold {
            return nil
        }
    }

    /// The number of the order `eventID` booked.
    private func number(bookedBy eventID: EventID) async throws -> Int? {
        var number: Int?
        for try await (found, ) in try await store.client.query(
            "SELECT number FROM example_booked_order WHERE event_id = \(eventID.debugDescription) ORDER BY number LIMIT 1",
            logger: logger
        ).decode((Int.self,)) {
            number = found
        }
        return number
    }

    /// Every booked order, by number.
    public func all() async throws -> [PlacedOrder] {
        var orders: [PlacedOrder] = []
        for try await (number, eventID, sku, quantity, user, requestID, bookedBy) in try await store.client
            .query(
                """
                SELECT number, event_id, sku, quantity, username, request_id, booked_by FROM example_booked_order
                ORDER BY number
                """, logger: logger
            ).decode((Int, String?, String, Int, String?, String?, String?).self)
        {
            orders.append(
                PlacedOrder(
                    number: number, sku: sku, quantity: quantity, user: user, requestID: requestID,
                    eventID: eventID, bookedBy: bookedBy))
        }
        return orders
    }

    /// How many of `sku` are left (`nil`: the book does not sell it).
    public func available(_ sku: String) async throws -> Int? {
        var available: Int?
        for try await (count, ) in try await store.client.query(
            "SELECT available FROM example_stock WHERE sku = \(sku)", logger: logger
        ).decode((Int.self,)) {
            available = count
        }
        return available
    }

    /// The article is not in the stock table: the order is passed, not booked.
    private struct NotSold: Error {}
}

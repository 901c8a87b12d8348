internal import GRDB
public import ResponderChain
public import ResponderChainSQLite

/// The orders of a durable ``OrderBook``, and its stock, in the SQLite file of its event system's
/// store: an order is booked and its event marked handled in one transaction
/// (`SQLitePostStore.inbox`), so that a post delivered again after a crash books nothing twice.
///
/// ```swift
/// let store = try SQLitePostStore(path: "orders.sqlite", events: OrderBook.storedEvents)
/// let booked = try await BookedOrders(store: store, stock: ["A-1": 100])
/// let number = try await booked.book(order, user: "alice", requestID: "r-1", eventID: context.eventID)
/// ```
public struct BookedOrders: Sendable {
    /// The store whose file holds the orders.
    public let store: SQLitePostStore

    /// Opens the orders' tables in `store`'s file, creating them if needed, and stocks each
    /// article of `stock` the file does not know yet (a restart keeps what was sold).
    public init(store: SQLitePostStore, stock: [String: Int]) async throws {
        self.store = store
        try await store.write { db, _ in
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS booked_order (
                        number INTEGER PRIMARY KEY AUTOINCREMENT,
                        event_id TEXT, sku TEXT NOT NULL, quantity INTEGER NOT NULL,
                        user TEXT, request_id TEXT)
                    """)
            try db.execute(
                sql: "CREATE TABLE IF NOT EXISTS stock (sku TEXT PRIMARY KEY, available INTEGER NOT NULL)")
            for (sku, available) in stock {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO stock (sku, available) VALUES (?, ?)",
                    arguments: [sku, available])
            }
        }
    }

    /// Books `order` and returns its number, or `nil` for an article the book does not sell;
    /// throws ``OutOfStock``. With `eventID`, the booking goes through the store's inbox: an event
    /// booked already books nothing again and returns the number it was booked under.
    public func book(_ order: PlaceOrder, user: String?, requestID: String?, eventID: EventID?) async throws
        -> Int?
    {
        let write: @Sendable (Database) throws -> Void = { db in
            guard
                let available = try Int.fetchOne(
                    db, sql: "SELECT available FROM stock WHERE sku = ?", arguments: [order.sku])
            else { throw NotSold() }
            guard order.quantity <= available else { throw OutOfStock(sku: order.sku) }
            try db.execute(
                sql: "UPDATE stock SET available = ? WHERE sku = ?",
                arguments: [available - order.quantity, order.sku])
            try db.execute(
                sql:
                    "INSERT INTO booked_order (event_id, sku, quantity, user, request_id) VALUES (?, ?, ?, ?, ?)",
                arguments: [eventID.map { "\($0)" }, order.sku, order.quantity, user, requestID])
        }
        do {
            guard let eventID else {
                return try await store.write { db, _ in
                    try write(db)
                    return Int(db.lastInsertedRowID)
                }
            }
            try await store.inbox.handleOnce(eventID, write)
            return try await store.read { db in
                try Int.fetchOne(
                    db, sql: "SELECT number FROM booked_order WHERE event_id = ? ORDER BY number LIMIT 1",
                    arguments: ["\(eventID)"])
            }
        } catch is NotSold {
            return nil
        }
    }

    /// Every booked order, by number.
    public func all() async throws -> [PlacedOrder] {
        try await store.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT number, event_id, sku, quantity, user, request_id FROM booked_order ORDER BY number"
            ).map { row in
                PlacedOrder(
                    number: row["number"], sku: row["sku"], quantity: row["quantity"], user: row["user"],
                    requestID: row["request_id"], eventID: row["event_id"])
            }
        }
    }

    /// How many of `sku` are left (`nil`: the book does not sell it).
    public func available(_ sku: String) async throws -> Int? {
        try await store.read { db in
            try Int.fetchOne(db, sql: "SELECT available FROM stock WHERE sku = ?", arguments: [sku])
        }
    }

    /// The article is not in the stock table: the order is passed, not booked.
    private struct NotSold: Error {}
}

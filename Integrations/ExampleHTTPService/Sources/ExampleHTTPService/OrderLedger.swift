public import ResponderChain

/// Where a durable ``OrderBook`` keeps its stock and orders: an SQLite file (``BookedOrders``) or
/// a PostgreSQL database (``PostgresBookedOrders``), each booking an event's order through its
/// store's inbox, so that a post delivered again books nothing twice.
public protocol OrderLedger: Sendable {
    /// Books `order` and returns its number, or `nil` for an article the book does not sell;
    /// throws ``OutOfStock``. With `eventID`, the booking goes through the store's inbox: an
    /// event booked already books nothing again and returns the number it was booked under.
    func book(_ order: PlaceOrder, user: String?, requestID: String?, eventID: EventID?) async throws -> Int?

    /// Every booked order, by number.
    func all() async throws -> [PlacedOrder]

    /// How many of `sku` are left (`nil`: the book does not sell it).
    func available(_ sku: String) async throws -> Int?
}

extension BookedOrders: OrderLedger {}

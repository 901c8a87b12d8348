public import ResponderChain
public import ResponderChainStoredEvents

/// The event the order routes send into the chain: place `quantity` of the article `sku`.
public struct PlaceOrder: Event, Codable {
    /// The article ordered.
    public let sku: String
    /// How many; at least 1.
    public let quantity: Int

    /// An order for `quantity` of `sku`.
    public init(sku: String, quantity: Int) {
        self.sku = sku
        self.quantity = quantity
    }
}

/// The request's identifier (the `X-Request-ID` header, or one the service made up), carried by
/// every event a request sends as event information.
public enum RequestID: InfoKey {
    /// The header's text.
    public typealias Value = String
}

/// The authenticated user who made the request (the `X-User` header here; a real service takes it
/// from its authentication middleware), carried by every event a request sends.
public enum AuthenticatedUser: InfoKey {
    /// The user's name.
    public typealias Value = String
}

/// The number the order book gave a placed order: the handler adds it to the event's information,
/// and the route reads it from the outcome.
public enum OrderNumber: InfoKey {
    /// The order's number, from 1.
    public typealias Value = Int
}

/// What a handler throws when there is not enough of an article left: the send fails, and the
/// route answers 500 naming this type (see ``OutcomeResponse``).
public struct OutOfStock: Error, Sendable {
    /// The article.
    public let sku: String
}

/// An order the book placed, with the request data its event carried.
public struct PlacedOrder: Hashable, Sendable {
    /// The order's number.
    public let number: Int
    /// The article.
    public let sku: String
    /// How many.
    public let quantity: Int
    /// Who ordered it (``AuthenticatedUser``).
    public let user: String?
    /// The request that placed it (``RequestID``).
    public let requestID: String?
    /// The identifier of the event that placed it (`nil` for `POST /orders/direct`).
    public let eventID: String?
    /// The instance that placed it: its store's consumer name on PostgreSQL, `nil` elsewhere.
    public var bookedBy: String?

    /// A placed order.
    public init(
        number: Int, sku: String, quantity: Int, user: String?, requestID: String?, eventID: String? = nil,
        bookedBy: String? = nil
    ) {
        self.number = number
        self.sku = sku
        self.quantity = quantity
        self.user = user
        self.requestID = requestID
        self.eventID = eventID
        self.bookedBy = bookedBy
    }
}

extension PlacedOrder: Codable {}

/// The root of the order chain: it keeps the stock and places orders.
///
/// It handles ``PlaceOrder`` (sent by `POST /orders`, the request's data in the event's
/// information) and ``PostedOrder`` (posted by `POST /orders/async`, the request's data in the
/// event): an article it does not sell is passed (the event ends unhandled), an order for more
/// than the stock throws ``OutOfStock`` (the event fails), any other is placed and its number
/// added to the event's information as ``OrderNumber``.
///
/// A book in memory keeps its stock and orders in the actor. A durable book (with an
/// ``OrderLedger``) keeps them in its store's SQLite file or PostgreSQL database, and books an
/// event's order through the store's inbox, so that an order posted before a crash and delivered
/// again after the restart (or by another instance) is booked once.
public actor OrderBook: Responder {
    private var stock: [String: Int]
    private var placedOrders: [Int: PlacedOrder] = [:]
    private var lastNumber = 0
    private let system: EventSystem
    /// Where a durable book books its orders; `nil` for a book in memory.
    public nonisolated let booked: (any OrderLedger)?

    /// The name the book is registered under in a durable system (`EventSystem.register(_:as:)`):
    /// a stored post names it, and a restart delivers it from the book registered under it.
    public static let entryName = "orders"

    /// The events a durable book's store writes, under stable names: ``PostedOrder`` as
    /// `"posted-order"`, version 1.
    public static var storedEvents: StoredEvents {
        var events = StoredEvents()
        // A fixed, unique name: registering it cannot fail.
        try? events.register(PostedOrder.self, as: "posted-order", version: 1)
        return events
    }

    /// A book selling `stock` (article → quantity), whose events go through `system`; with
    /// `booked`, a durable book that keeps its stock and orders there (its `stock` is then the
    /// ledger's business: see ``BookedOrders/init(store:stock:)``).
    public init(stock: [String: Int], system: EventSystem, booked: (any OrderLedger)? = nil) {
        self.stock = stock
        self.system = system
        self.booked = booked
    }

    /// The book is the chain's root.
    public nonisolated var isRoot: Bool { true }
    /// The book has no next responder.
    public var next: (any Responder)? { nil }
    /// The system this book's events go through (its tracer, dead letters and posting limit).
    public nonisolated var eventSystem: EventSystem { system }

    /// The handlers of the book.
    public static let strategies = Strategies<OrderBook> {
        $0.on(PlaceOrder.self) { book, order, context in
            let number = try await book.place(
                order, user: context.info[AuthenticatedUser.self], requestID: context.info[RequestID.self],
                eventID: context.eventID)
            guard let number else { return .pass }
            context.info[OrderNumber.self] = number
            return .handled
        }
        $0.on(PostedOrder.self) { book, posted, context in
            let number = try await book.place(
                PlaceOrder(sku: posted.sku, quantity: posted.quantity), user: posted.user,
                requestID: posted.requestID, eventID: context.eventID)
            guard let number else { return .pass }
            context.info[OrderNumber.self] = number
            return .handled
        }
    }

    /// Places `order` and returns its number, or `nil` for an article the book does not sell;
    /// throws ``OutOfStock``. The chain's handlers call it with their event's identifier, and so
    /// does the route that answers without the chain (to measure what the chain costs), without.
    /// A durable book places an event's order once (through its ``OrderLedger``): placing it again
    /// returns the number it has.
    public func place(_ order: PlaceOrder, user: String?, requestID: String?, eventID: EventID? = nil)
        async throws -> Int?
    {
        if let booked {
            return try await booked.book(order, user: user, requestID: requestID, eventID: eventID)
        }
        guard let available = stock[order.sku] else { return nil }
        guard order.quantity <= available else { throw OutOfStock(sku: order.sku) }
        stock[order.sku] = available - order.quantity
        lastNumber += 1
        placedOrders[lastNumber] = PlacedOrder(
            number: lastNumber, sku: order.sku, quantity: order.quantity, user: user, requestID: requestID,
            eventID: eventID.map(\.debugDescription))
        return lastNumber
    }

    /// Every order the book placed, by number (a durable book's from its file).
    public func placedOrdersByNumber() async throws -> [PlacedOrder] {
        if let booked { return try await booked.all() }
        return placedOrders.values.sorted { $0.number < $1.number }
    }

    /// The order numbered `number`, if the book (in memory) placed it.
    public func order(_ number: Int) -> PlacedOrder? { placedOrders[number] }

    /// How many orders the book (in memory) placed.
    public var placedCount: Int { placedOrders.count }

    /// How many of `sku` are left in a book in memory (`nil`: the book does not sell it).
    public func available(_ sku: String) -> Int? { stock[sku] }
}

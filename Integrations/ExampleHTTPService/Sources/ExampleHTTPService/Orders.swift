public import ResponderChain

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

    /// A placed order.
    public init(number: Int, sku: String, quantity: Int, user: String?, requestID: String?) {
        self.number = number
        self.sku = sku
        self.quantity = quantity
        self.user = user
        self.requestID = requestID
    }
}

/// The root of the order chain: it keeps the stock and places orders.
///
/// It handles ``PlaceOrder``: an article it does not sell is passed (the event ends unhandled), an
/// order for more than the stock throws ``OutOfStock`` (the event fails), any other is placed and
/// its number added to the event's information as ``OrderNumber``.
public actor OrderBook: Responder {
    private var stock: [String: Int]
    private var placedOrders: [Int: PlacedOrder] = [:]
    private var lastNumber = 0
    private let system: EventSystem

    /// A book selling `stock` (article → quantity), whose events go through `system`.
    public init(stock: [String: Int], system: EventSystem) {
        self.stock = stock
        self.system = system
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
            let number = try book.place(
                order, user: context.info[AuthenticatedUser.self], requestID: context.info[RequestID.self])
            guard let number else { return .pass }
            context.info[OrderNumber.self] = number
            return .handled
        }
    }

    /// Places `order` and returns its number, or `nil` for an article the book does not sell;
    /// throws ``OutOfStock``. The chain's handler calls it, and so does the route that answers
    /// without the chain (to measure what the chain costs).
    public func place(_ order: PlaceOrder, user: String?, requestID: String?) throws -> Int? {
        guard let available = stock[order.sku] else { return nil }
        guard order.quantity <= available else { throw OutOfStock(sku: order.sku) }
        stock[order.sku] = available - order.quantity
        lastNumber += 1
        placedOrders[lastNumber] = PlacedOrder(
            number: lastNumber, sku: order.sku, quantity: order.quantity, user: user, requestID: requestID)
        return lastNumber
    }

    /// The order numbered `number`, if the book placed it.
    public func order(_ number: Int) -> PlacedOrder? { placedOrders[number] }

    /// How many orders the book placed.
    public var placedCount: Int { placedOrders.count }

    /// How many of `sku` are left (`nil`: the book does not sell it).
    public func available(_ sku: String) -> Int? { stock[sku] }
}

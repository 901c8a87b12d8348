public import ResponderChain

/// The event `POST /orders/async` posts: the order, with the request's data inside it.
///
/// A post to a durable system is stored, and a stored post carries no event information (it is
/// refused if its options hold some): so the posting route puts what the handler needs, the
/// user and the request's identifier, in the event itself, in memory and on SQLite alike. Stored
/// as JSON under the name `"posted-order"` (``OrderBook/storedEvents``).
///
/// ```swift
/// await book.post(PostedOrder(sku: "A-1", quantity: 2, user: "alice", requestID: "r-1"))
/// ```
public struct PostedOrder: Event, Codable, Hashable {
    /// The article ordered.
    public let sku: String
    /// How many; at least 1.
    public let quantity: Int
    /// Who ordered it (the `X-User` header).
    public let user: String?
    /// The request that posted it (the `X-Request-ID` header, or one the service made up).
    public let requestID: String?

    /// An order for `quantity` of `sku` by `user`, posted by the request `requestID`.
    public init(sku: String, quantity: Int, user: String?, requestID: String?) {
        self.sku = sku
        self.quantity = quantity
        self.user = user
        self.requestID = requestID
    }
}

public import Hummingbird

/// The body of `GET /orders/booked`.
public struct BookedReply: ResponseCodable, Equatable {
    /// The orders the book placed, by number.
    public var orders: [PlacedOrder]
    /// How many posted orders the chain holds, not yet ended.
    public var outstanding: Int

    /// A body.
    public init(orders: [PlacedOrder], outstanding: Int) {
        self.orders = orders
        self.outstanding = outstanding
    }
}

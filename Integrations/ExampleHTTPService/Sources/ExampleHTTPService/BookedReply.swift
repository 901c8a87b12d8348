public import Hummingbird

/// The body of `GET /orders/booked`.
public struct BookedReply: ResponseCodable, Equatable {
    /// The orders the book placed, by number.
    public var orders: [PlacedOrder]
    /// How many posted orders the chain holds, not yet ended.
    public var outstanding: Int
    /// How many posts of an earlier run this process found in its store at start and delivers
    /// again (0 in memory).
    public var recovered: Int

    /// A body.
    public init(orders: [PlacedOrder], outstanding: Int, recovered: Int = 0) {
        self.orders = orders
        self.outstanding = outstanding
        self.recovered = recovered
    }
}

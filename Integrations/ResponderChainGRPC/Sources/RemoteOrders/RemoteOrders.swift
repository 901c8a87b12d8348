// The order vocabulary the package's own processes share (the demo's gateway and backend, the
// two-process test's server, and the tests): what may cross a remote link, and the names it
// crosses as. Internal to this package: not offered as a product.
public import ResponderChain
public import ResponderChainGRPC

/// An order: `{"sku": …, "quantity": …}` on the wire, as `orders.place`.
public struct PlaceOrder: Event, Codable, Equatable {
    /// The article ordered.
    public var sku: String
    /// How many of it.
    public var quantity: Int

    /// An order of `quantity` items of `sku`.
    public init(sku: String, quantity: Int = 1) {
        self.sku = sku
        self.quantity = quantity
    }
}

/// The customer, as `customer-id`: crosses both ways.
public enum CustomerID: InfoKey {
    /// The customer's identifier.
    public typealias Value = String
}

/// A number the backend gives an order (a reservation), as `reservation`: sent back with the
/// outcome.
public enum Reservation: InfoKey {
    /// The reservation's number.
    public typealias Value = Int
}

/// The name of the backend process that handled an order, as `handled-by`: sent back with the
/// outcome by a test server launched with `--name` (a test over several backends reads it).
public enum HandledBy: InfoKey {
    /// The backend's name.
    public typealias Value = String
}

/// The names both sides of a link give what may cross: the front and the back register the same.
public func ordersRegistry() -> RemoteRegistry {
    var registry = RemoteRegistry()
    do {
        // The examples publish each name's JSON for clients in other languages (RegistryNames).
        try registry.register(
            PlaceOrder.self, as: "orders.place", example: PlaceOrder(sku: "A-1", quantity: 2))
        try registry.register(info: CustomerID.self, as: "customer-id", example: "c-1")
        try registry.register(info: Reservation.self, as: "reservation", example: 1)
        try registry.register(info: HandledBy.self, as: "handled-by", example: "backend-1")
    } catch {
        fatalError("the order vocabulary's names clash: \(error)")
    }
    return registry
}

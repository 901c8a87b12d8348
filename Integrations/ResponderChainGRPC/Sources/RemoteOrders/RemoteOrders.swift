// The order vocabulary the package's own processes share (the demo's gateway and backend, the
// two-process test's server, and the tests): what may cross a remote link, and the names it
// crosses as. Internal to this package: not offered as a product.
public import ResponderChain
public import ResponderChainGRPC
public import ResponderChainStoredEvents

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

/// A shipment as the old binary of the rolling-upgrade test writes it (schema version 1):
/// `{"sender": …, "number": …}`, as `shipment`.
public struct ShipmentV1: Event, Codable, Equatable {
    /// The process that sent it.
    public var sender: String
    /// Its number among that sender's shipments, from 1.
    public var number: Int

    /// Shipment `number` of `sender`.
    public init(sender: String, number: Int) {
        self.sender = sender
        self.number = number
    }
}

/// A shipment as the new binary writes it (schema version 2): version 1 and its weight in grams.
public struct Shipment: Event, Codable, Equatable {
    /// The process that sent it.
    public var sender: String
    /// Its number among that sender's shipments, from 1.
    public var number: Int
    /// Its weight; 0 for a shipment of version 1, which had none.
    public var grams: Int

    /// Shipment `number` of `sender`, weighing `grams`.
    public init(sender: String, number: Int, grams: Int) {
        self.sender = sender
        self.number = number
        self.grams = grams
    }
}

/// Which binary of the rolling-upgrade test a process is.
public enum ShipmentSchema: String, Sendable {
    /// Writes ``ShipmentV1`` (version 1) and reads ahead to version 2, which only adds a field:
    /// it was deployed first, so that it reads what the new binary writes.
    case old
    /// Writes ``Shipment`` (version 2) and reads version 1 through an upcast.
    case new
}

/// ``ordersRegistry()`` with the shipment event of `schema`'s binary.
public func ordersRegistry(shipments schema: ShipmentSchema) -> RemoteRegistry {
    var registry = ordersRegistry()
    do {
        switch schema {
        case .old:
            try registry.register(ShipmentV1.self, as: "shipment", version: 1, readingAheadTo: 2)
        case .new:
            try registry.register(
                Shipment.self, as: "shipment", version: 2,
                upcasting: [
                    EventUpcast(from: 1, ShipmentV1.self) {
                        Shipment(sender: $0.sender, number: $0.number, grams: 0)
                    }
                ])
        }
    } catch {
        fatalError("the shipment's registration is refused: \(error)")
    }
    return registry
}

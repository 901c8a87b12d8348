import Foundation
import ResponderChain
import ResponderChainGRPC

// The backend's side of the wire: the same names and JSON shapes as the front's (the test
// fixtures'). The front cannot import an executable's types, so they are declared again here.

/// An order: `{"sku": …, "quantity": …}` on the wire, as `orders.place`.
struct PlaceOrder: Event, Codable {
    var sku: String
    var quantity = 1
}

/// The customer, as `customer-id`: crosses both ways.
enum CustomerID: InfoKey { typealias Value = String }

/// The number of an order among those this process has handled (1, 2, …), as `reservation`:
/// set by ``Stock`` and sent back with the outcome, so that the front can see the order in
/// which its events arrived here.
enum Reservation: InfoKey { typealias Value = Int }

/// The names this process lets cross: the front registers the same.
func backendRegistry() -> RemoteRegistry {
    var registry = RemoteRegistry()
    try! registry.register(PlaceOrder.self, as: "orders.place")
    try! registry.register(info: CustomerID.self, as: "customer-id")
    try! registry.register(info: Reservation.self, as: "reservation")
    return registry
}

/// Writes `line` to standard output at once (unbuffered: the test reads it through a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The entry of the backend chain (`"orders"`): an order whose sku starts with `slow` is parked
/// here until its call is given up or the process dies, after saying `parked <sku>`; every other
/// order goes on to ``Stock``.
actor Desk: Responder {
    nonisolated let eventSystem: EventSystem
    let stock: Stock

    init(next stock: Stock, system: EventSystem) {
        self.stock = stock
        self.eventSystem = system
    }

    var next: (any Responder)? { stock }
    nonisolated var label: String { "desk" }

    static let strategies = Strategies<Desk> {
        $0.on(PlaceOrder.self) { _, order, _ in
            guard order.sku.hasPrefix("slow") else { return .pass }
            say("parked \(order.sku)")
            try await Task.sleep(for: .seconds(24 * 3_600))  // woken only by cancellation
            return .pass
        }
    }
}

/// The root of the backend chain: handles every order it sees, numbering it in arrival order
/// under ``Reservation``.
actor Stock: Responder {
    nonisolated let eventSystem: EventSystem
    private var handled = 0

    init(system: EventSystem) {
        self.eventSystem = system
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }
    nonisolated var label: String { "stock" }

    static let strategies = Strategies<Stock> {
        $0.on(PlaceOrder.self) { stock, _, context in
            stock.handled += 1
            context.info[Reservation.self] = stock.handled
            return .handled
        }
    }
}

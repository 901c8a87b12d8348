import Foundation
import ResponderChain
import RemoteOrders

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
        $0.on(PlaceOrder.self) { desk, order, _ in
            guard order.sku.hasPrefix("slow") else { return .pass }
            say("parked \(order.sku)")
            try await desk.eventSystem.clock.sleep(for: .seconds(24 * 3_600))  // woken only by cancellation
            return .pass
        }
    }
}

/// The root of the backend chain: handles every order it sees, numbering it in arrival order
/// under ``Reservation``, and, when it has a name, writing it under ``HandledBy``.
actor Stock: Responder {
    nonisolated let eventSystem: EventSystem
    private let name: String?
    private var handled = 0

    init(name: String?, system: EventSystem) {
        self.name = name
        self.eventSystem = system
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }
    nonisolated var label: String { "stock" }

    /// The shipments received, and the next number expected of each sender.
    private var shipments = 0
    private var nextNumber: [String: Int] = [:]

    static let strategies = Strategies<Stock> {
        $0.on(PlaceOrder.self) { stock, _, context in
            stock.handled += 1
            context.info[Reservation.self] = stock.handled
            if let name = stock.name { context.info[HandledBy.self] = name }
            return .handled
        }
        // The binary registers one of the two shapes; the other never arrives.
        $0.on(ShipmentV1.self) { stock, shipment, _ in
            stock.receive(from: shipment.sender, number: shipment.number)
            return .handled
        }
        $0.on(Shipment.self) { stock, shipment, _ in
            stock.receive(from: shipment.sender, number: shipment.number)
            return .handled
        }
    }

    /// Counts a shipment, saying every thousandth, and checks it came in its sender's order.
    private func receive(from sender: String, number: Int) {
        let expected = nextNumber[sender, default: 1]
        if number != expected { say("out of order \(sender) \(number)") }
        nextNumber[sender] = number + 1
        shipments += 1
        if shipments % 1_000 == 0 { say("received \(shipments)") }
    }
}

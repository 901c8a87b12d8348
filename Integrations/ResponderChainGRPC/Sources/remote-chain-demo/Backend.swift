import Foundation
import InMemoryTracing
import RemoteOrders
import ResponderChain
import ResponderChainDistributedTracing
import ResponderChainGRPC
import ServiceLifecycle
import UnixSignals

/// The backend process: `inventory → order-book`, exposed as the entry "orders" by a
/// ``RemoteChainServer`` on 127.0.0.1 (a port the system chooses). It prints `listening <port>`,
/// serves until SIGTERM, drains its system, then prints its finished spans as ``SpanLine``s.
enum Backend {
    static func run() async throws {
        let spans = tracer(prefix: "backend")
        let system = EventSystem(tracer: SpanTracer(tracer: spans))
        let orderBook = OrderBook(system: system)
        let inventory = Inventory(next: orderBook, system: system)
        let entries = RemoteEntries(
            ["orders": inventory], registry: ordersRegistry(), instrument: spans, system: system)
        let server = RemoteChainServer(entries: entries, port: 0)

        // A group stops its services in reverse order: the system drains first, while the server
        // still answers (what arrives then comes back rejected, shutting down).
        let group = ServiceGroup(
            services: [server, SystemDrain(system: system)], gracefulShutdownSignals: [.sigterm])
        try await withThrowingDiscardingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            say("listening \(try await server.listeningPort)")
        }
        for span in spans.finishedSpans { say(SpanLine(span, process: "backend").text) }
    }
}

/// Shuts the backend's system down when the service group stops.
private struct SystemDrain: Service {
    let system: EventSystem

    func run() async throws {
        try? await gracefulShutdown()
        _ = await system.shutDown(gracePeriod: .seconds(5))
    }
}

/// Reserves stock for each order and lets it go on, adding the reservation.
actor Inventory: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let label = "inventory"
    private let orderBook: OrderBook
    private var nextReservation = 100

    init(next: OrderBook, system: EventSystem) {
        self.orderBook = next
        self.eventSystem = system
    }

    var next: (any Responder)? { orderBook }

    static let strategies = Strategies<Inventory> {
        $0.on(PlaceOrder.self) { inventory, order, context in
            guard !order.sku.hasPrefix("Z") else { throw OutOfStock(sku: order.sku) }
            inventory.nextReservation += 1
            context.info[Reservation.self] = inventory.nextReservation
            return .pass
        }
    }
}

/// Books every order: the root of the backend's chain.
actor OrderBook: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let label = "order-book"
    private(set) var booked: [String] = []

    init(system: EventSystem) { self.eventSystem = system }

    var next: (any Responder)? { nil }

    static let strategies = Strategies<OrderBook> {
        $0.on(PlaceOrder.self) { book, order, context in
            book.booked.append("\(order.sku) for \(context.info[CustomerID.self] ?? "nobody")")
            return .handled
        }
    }
}

/// Writes `line` to standard output at once (a pipe would hold it in a buffer).
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

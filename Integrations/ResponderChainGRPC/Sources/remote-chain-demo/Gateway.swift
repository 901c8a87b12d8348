import Foundation
import InMemoryTracing
import RemoteOrders
import ResponderChain
import ResponderChainDistributedTracing
import ResponderChainGRPC
import Tracing

/// The gateway process: `session → orders@backend`, the link continuing the chain at the
/// backend's entry "orders".
enum Gateway {
    static func run() async throws {
        let backend = try BackendProcess.launch()
        print("backend: pid \(backend.pid), listening on 127.0.0.1:\(backend.port)")

        let spans = tracer(prefix: "gateway")
        let system = EventSystem(tracer: SpanTracer(tracer: spans))
        let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: backend.port, system: system)
        var backendLines: [String] = []
        try await withThrowingDiscardingTaskGroup { tasks in
            tasks.addTask { try await transport.run() }
            let link = RemoteLink(
                entry: "orders", transport: transport, registry: ordersRegistry(), label: "orders@backend",
                system: system, instrument: spans)
            try await link.checkRegistry()
            print("registry: the backend names the same events and information\n")
            let session = Session(customer: "c-42", next: link, system: system)

            print("1. An awaited send, handled in the backend:")
            let handled = await spans.withSpan("checkout") { _ in
                await session.send(PlaceOrder(sku: "A-1", quantity: 2))
            }
            print("   \(handled)")
            print("   reservation made there: \(handled.info[Reservation.self].map(String.init) ?? "none")\n")

            print("2. A handler in the backend throws:")
            print("   \(await session.send(PlaceOrder(sku: "Z-9", quantity: 1)))\n")

            print("3. Three posts: delivered one after another, each ticket with the remote outcome:")
            var tickets: [(sku: String, ticket: Ticket)] = []
            for sku in ["B-1", "B-2", "B-3"] {
                tickets.append((sku, await session.post(PlaceOrder(sku: sku, quantity: 1))))
            }
            for (sku, ticket) in tickets {
                let outcome = await ticket.outcome
                print(
                    "   \(sku): \(outcome), reservation \(outcome.info[Reservation.self].map(String.init) ?? "none")"
                )
            }

            print("\n4. The backend stops gracefully (SIGTERM); a send afterwards:")
            backendLines = try backend.stop()
            let unreachable = await session.send(
                PlaceOrder(sku: "C-1", quantity: 1), options: SendOptions(timeout: .seconds(5)))
            print("   \(unreachable)\n")
            transport.shutDown()
        }

        let joined =
            spans.finishedSpans.map { SpanLine($0, process: "gateway") }
            + backendLines.compactMap(SpanLine.init(line:))
        print("The joined trace of the awaited send (the backend's spans under the link's hop):")
        let checkout = joined.first { $0.name == "checkout" }
        print(SpanLine.render(joined.filter { $0.traceID == checkout?.traceID }))
    }
}

/// The gateway's first responder: adds who is ordering, and lets the event go on.
actor Session: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let label = "session"
    private let customer: String
    private let link: RemoteLink

    init(customer: String, next link: RemoteLink, system: EventSystem) {
        self.customer = customer
        self.link = link
        self.eventSystem = system
    }

    var next: (any Responder)? { link }

    static let strategies = Strategies<Session> {
        $0.on(PlaceOrder.self) { session, _, context in
            context.info[CustomerID.self] = session.customer
            return .pass
        }
    }
}

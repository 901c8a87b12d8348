import InMemoryTracing
import ResponderChain
import ResponderChainGRPC
import Synchronization

/// An order, sent by the gateway and handled by the backend: it crosses as "orders.place".
struct PlaceOrder: Event, Codable {
    var sku: String
    var quantity: Int
}

/// Who ordered, added by the gateway's session: crosses as "customer-id".
enum CustomerID: InfoKey { typealias Value = String }
/// The stock reserved by the backend's inventory: comes back as "reservation".
enum Reservation: InfoKey { typealias Value = Int }

/// What an order's handler throws when nothing is left.
struct OutOfStock: Error, CustomStringConvertible {
    let sku: String
    var description: String { "out of stock: \(sku)" }
}

/// The names both processes give what may cross.
func ordersRegistry() -> RemoteRegistry {
    var registry = RemoteRegistry()
    do {
        try registry.register(PlaceOrder.self, as: "orders.place")
        try registry.register(info: CustomerID.self, as: "customer-id")
        try registry.register(info: Reservation.self, as: "reservation")
    } catch {
        fatalError("the demo's registry names clash: \(error)")
    }
    return registry
}

/// An in-memory tracer whose span and trace ids start with `prefix`, so that the ids of the two
/// processes never collide when their spans are joined.
func tracer(prefix: String) -> InMemoryTracer {
    let counter = Atomic<Int>(0)
    let next: @Sendable () -> String = { "\(prefix)-\(counter.add(1, ordering: .relaxed).newValue)" }
    return InMemoryTracer(idGenerator: .init(nextTraceID: next, nextSpanID: next))
}

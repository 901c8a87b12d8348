import InMemoryTracing
import Synchronization

/// What an order's handler throws when nothing is left.
struct OutOfStock: Error, CustomStringConvertible {
    let sku: String
    var description: String { "out of stock: \(sku)" }
}

/// An in-memory tracer whose span and trace ids start with `prefix`, so that the ids of the two
/// processes never collide when their spans are joined.
func tracer(prefix: String) -> InMemoryTracer {
    let counter = Atomic<Int>(0)
    let next: @Sendable () -> String = { "\(prefix)-\(counter.add(1, ordering: .relaxed).newValue)" }
    return InMemoryTracer(idGenerator: .init(nextTraceID: next, nextSpanID: next))
}

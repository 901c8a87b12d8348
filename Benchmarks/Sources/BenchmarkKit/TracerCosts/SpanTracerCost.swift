import ResponderChain
import ResponderChainDistributedTracing
import Tracing

extension TracerCost {
    /// `SpanTracer` (swift-distributed-tracing) with no tracing backend installed
    /// (`InstrumentationSystem` not bootstrapped, so its tracer is the `NoOpTracer`).
    static let span = TracerCost(
        id: "span-tracer", title: "7d SpanTracer",
        note: logging.note,
        variants: {
            var request = ServiceContext.topLevel
            request[RequestKey.self] = "req-1"
            return [
                Variant(name: "no backend, no sender context (declined)", tracer: SpanTracer()),
                Variant(name: "no backend, sender has a context", tracer: SpanTracer(), context: request),
                .spanOverNoOpTracer,
            ]
        })
}

extension TracerCost.Variant {
    /// A `SpanTracer` over swift-distributed-tracing's `NoOpTracer`, for a sender with a request
    /// context: the cost of the adapter itself, its target ≤ +300 ns per hop.
    static var spanOverNoOpTracer: Self {
        var request = ServiceContext.topLevel
        request[RequestKey.self] = "req-1"
        return Self(
            name: "SpanTracer(tracer: NoOpTracer()), sender has a context",
            tracer: SpanTracer(tracer: NoOpTracer()), context: request,
            target: .extraNanosecondsPerHopAtMost(300))
    }
}

/// A sender's request context: what a server handler would have when it sends.
enum RequestKey: ServiceContextKey {
    typealias Value = String
}

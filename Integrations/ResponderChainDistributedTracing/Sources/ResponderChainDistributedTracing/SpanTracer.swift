public import ResponderChain
public import Tracing

/// A ResponderChain tracer that opens one swift-distributed-tracing span around each hop (a
/// `ScopingTracer` whose context is the sender's `ServiceContext`).
///
/// Each hop's span is a child of the span that was current where the event was sent — also when
/// the event is delivered later from a queue, because the sender's `ServiceContext` is captured
/// at send (or post) time and restored in the hop's scope. The handlers run inside the span:
/// `ServiceContext.current` is the hop span's context there, so spans they start are its children,
/// and an error a handler throws is recorded on the span.
///
/// ```swift
/// InstrumentationSystem.bootstrap(OTelTracer(…))          // once, at startup
/// let checkout = EventSystem(tracer: SpanTracer())          // every send of the chain
/// ```
///
/// Span attributes: `responder.event_id`, `responder.event`, `responder.hop`,
/// `responder.isolation`, and `responder.disposition` when the handlers return.
public struct SpanTracer: ResponderChain.ScopingTracer {
    private let backend: (any Tracing.Tracer)?

    /// A tracer that opens its spans with `tracer`, or with the tracer bootstrapped in
    /// `InstrumentationSystem` (read at each hop) when `tracer` is `nil`.
    public init(tracer: (any Tracing.Tracer)? = nil) {
        self.backend = tracer
    }

    /// The sender's `ServiceContext`, taken when the event is sent or posted.
    public func captureContext() -> ServiceContext? {
        ServiceContext.current
    }

    /// Runs the hop's handlers inside a span named `<event> at <responder>`.
    public nonisolated(nonsending) func withHop(
        _ scope: HopScope<ServiceContext>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        let tracer = backend ?? InstrumentationSystem.tracer
        return try await tracer.withSpan(
            "\(scope.hop.eventName) at \(scope.responder.label)",
            context: scope.context ?? .topLevel,
            ofKind: .internal
        ) { span in
            span.attributes["responder.event_id"] = "\(scope.eventID)"
            span.attributes["responder.event"] = scope.hop.eventName
            span.attributes["responder.hop"] = scope.number
            span.attributes["responder.isolation"] = scope.hop.isolation.description
            let disposition = try await body()
            span.attributes["responder.disposition"] = disposition.description
            return disposition
        }
    }

    /// Point events are not spans: log them with a logging tracer if you want them.
    public func record(_ event: TraceEvent) {}
}

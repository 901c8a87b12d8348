public import ResponderChain
public import Tracing

/// A ResponderChain tracer that opens one swift-distributed-tracing span around each hop (a
/// `ScopingTracer` whose scope is `withSpan`).
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
/// Span attributes: `responder.event_id` (the id's full form, `5f1c09d2e4b7a836#42`, unique
/// across processes), `responder.event`, `responder.hop`,
/// `responder.isolation`, and `responder.disposition` when the handlers return. They are set only
/// on a span that records (`span.isRecording`).
///
/// **With no tracing backend** (`InstrumentationSystem` never bootstrapped, so its tracer is a
/// `NoOpTracer`), a send whose sender has no `ServiceContext` is declined at its gate: no span
/// would record anything and there is no context to carry, so the send costs what an untraced
/// send costs (its handlers see no `ServiceContext`, where a no-op span would have bound an empty
/// one). A sender with a `ServiceContext` is still traced, so that its context (its baggage)
/// reaches the handlers, also across posted delivery.
public struct SpanTracer: ResponderChain.ScopingTracer {
    /// What a send takes from the sender's task, when it is sent or posted, for the spans of its
    /// hops.
    public struct Captured: Sendable {
        /// The sender's `ServiceContext`, if it had one: each hop's span is its child.
        public let serviceContext: ServiceContext?
        /// The tracer the hops' spans are opened with: the one given to ``SpanTracer/init(tracer:)``,
        /// or the one `InstrumentationSystem` had in the sender's task (a `withTracer` scope there
        /// included).
        public let tracer: any Tracing.Tracer
        /// Whether ``tracer`` is a `NoOpTracer`, decided once per send rather than at every hop.
        let isNoOp: Bool

        /// A capture (for tests).
        public init(serviceContext: ServiceContext?, tracer: any Tracing.Tracer) {
            self.serviceContext = serviceContext
            self.tracer = tracer
            self.isNoOp = tracer is NoOpTracer
        }
    }

    private let backend: (any Tracing.Tracer)?

    /// A tracer that opens its spans with `tracer`, or, when `tracer` is `nil`, with the tracer
    /// `InstrumentationSystem` has when each event is sent (read once per send, in the sender's
    /// task).
    public init(tracer: (any Tracing.Tracer)? = nil) {
        self.backend = tracer
    }

    /// Declines a send when its spans could record nothing and there is no context to carry: the
    /// tracer is a `NoOpTracer` (no backend bootstrapped) and the sender has no `ServiceContext`.
    public func shouldTrace(_ event: any Event, from source: EventSource) -> Bool {
        // The task-local first: a sender with a context is traced whatever the backend is.
        ServiceContext.current != nil || !(currentTracer is NoOpTracer)
    }

    /// The sender's `ServiceContext` and the tracer to open the spans with, taken when the event
    /// is sent or posted.
    public func captureContext() -> Captured? {
        Captured(serviceContext: ServiceContext.current, tracer: currentTracer)
    }

    /// The sender's trace context as the tracer's instrument writes it (for a W3C propagator,
    /// `traceparent` and `tracestate`): what a store keeps with a posted event, so that its
    /// delivery after a restart is still a child of the sender's span. Empty without a context.
    public func storedContext(of captured: Captured) -> [String: String] {
        guard let context = captured.serviceContext else { return [:] }
        var carrier: [String: String] = [:]
        captured.tracer.inject(context, into: &carrier, using: StoredContextInjector())
        return carrier
    }

    /// The trace context a store kept (``storedContext(of:)``), read back by this tracer's
    /// instrument for the delivery of a recovered post; `nil` when nothing was kept.
    public func context(restoredFrom stored: [String: String]) -> Captured? {
        guard !stored.isEmpty else { return nil }
        let tracer = currentTracer
        var context = ServiceContext.topLevel
        tracer.extract(stored, into: &context, using: StoredContextExtractor())
        return Captured(serviceContext: context, tracer: tracer)
    }

    /// Runs the hop's handlers inside a span named `<event> at <responder>`.
    public nonisolated(nonsending) func withHop(
        _ scope: Hop.Scope<Captured>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        if let captured = scope.context, captured.isNoOp {
            // What a `NoOpTracer`'s `withSpan` does, without a span that does nothing: the
            // handlers run with the sender's context bound. An awaited send's hops run in the
            // sender's task, where that context is bound already: binding it again would change
            // nothing, at the cost of a task-local binding per hop.
            let context = captured.serviceContext ?? .topLevel
            if isSameValue(ServiceContext.current, context) { return try await body() }
            return try await ServiceContext.$current.withValue(context, operation: body)
        }
        let tracer = scope.context?.tracer ?? currentTracer
        return try await tracer.withSpan(
            "\(scope.hop.eventName) at \(scope.responder.label)",
            context: scope.context?.serviceContext ?? .topLevel,
            ofKind: .internal
        ) { span in
            // A span that does not record (a no-op tracer's) would build its attributes for
            // nothing, at every hop.
            let isRecording = span.isRecording
            if isRecording {
                span.attributes["responder.event_id"] = scope.eventID.debugDescription
                span.attributes["responder.event"] = scope.hop.eventName
                span.attributes["responder.hop"] = scope.number
                span.attributes["responder.isolation"] = scope.hop.isolation.description
            }
            let disposition = try await body()
            if isRecording {
                span.attributes["responder.disposition"] = disposition.description
            }
            return disposition
        }
    }

    /// Point events are not spans: log them with a logging tracer if you want them.
    public func record(_ event: TraceEvent) {}

    /// The tracer given at init, else the one `InstrumentationSystem` has in this task.
    private var currentTracer: any Tracing.Tracer {
        backend ?? InstrumentationSystem.tracer
    }
}

/// Whether two values are bit for bit the same: the same storage, for a copy-on-write value such
/// as `ServiceContext` (storage shared by two values is copied before either is written to), so
/// certainly equal. Different bits prove nothing.
private func isSameValue<Value>(_ first: Value?, _ second: Value) -> Bool {
    guard let first else { return false }
    return withUnsafeBytes(of: first) { first in
        withUnsafeBytes(of: second) { second in first.elementsEqual(second) }
    }
}

/// Writes a trace context into the dictionary a store keeps.
private struct StoredContextInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
        carrier[key] = value
    }
}

/// Reads a trace context from the dictionary a store kept.
private struct StoredContextExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}

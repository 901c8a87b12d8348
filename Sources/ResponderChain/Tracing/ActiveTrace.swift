/// A tracer bound, for one send it accepted, to what it captured in the sender's task.
///
/// Each traced send holds one of these (in ``EventContext``), so that each hop reaches the tracer
/// without a cast and without recomputing anything per send: the gate, the context capture and the
/// event's ``Event/traceName`` happen once per send, in its ``TraceBinder`` (the tracer's kind is
/// decided once per tracer). Untraced sends, and sends every tracer
/// declined, hold none.
///
/// Class-bound, so that the context's `(any ActiveTrace)?` is one reference: a protocol value's
/// optional was copied and destroyed through the standard library's generic `Optional` witnesses
/// at every send, `nil` included (about 400 instructions per one-hop send, counted by
/// `.ci/hop-instructions`). A traced send allocates its trace once.
@usableFromInline
protocol ActiveTrace: AnyObject, Sendable {
    /// The event's ``Event/traceName``, computed once per send.
    var eventName: String { get }

    /// Whether hops run inside a scope: `false` for a plain ``Tracer``, whose hops call the
    /// handlers with nothing around them.
    var hasScope: Bool { get }

    /// Forwards a point event to the tracer.
    func record(_ event: TraceEvent)

    /// Runs `body` for `hop`: inside the tracer's scope for a ``ScopingTracer``, as is otherwise.
    nonisolated(nonsending) func withHop(
        _ hop: Hop,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition

    /// The tracer's type name, for ``ResponderChainError``.
    var tracerName: String { get }

    /// What a store keeps of the captured context (``ScopingTracer/storedContext(of:)``).
    var storedContext: [String: String] { get }
}

/// A plain ``Tracer``: point events only, no scope around the handlers.
final class UnscopedTrace<Bound: Tracer>: ActiveTrace {
    let tracer: Bound
    let eventName: String

    init(tracer: Bound, eventName: String) {
        self.tracer = tracer
        self.eventName = eventName
    }

    var hasScope: Bool { false }

    func record(_ event: TraceEvent) {
        tracer.record(event)
    }

    nonisolated(nonsending) func withHop(
        _ hop: Hop,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await body()
    }

    var tracerName: String { _typeName(Bound.self, qualified: false) }

    var storedContext: [String: String] { [:] }
}

/// A ``ScopingTracer`` and what it captured: each hop runs inside its scope.
final class BoundTrace<Bound: ScopingTracer>: ActiveTrace {
    let tracer: Bound
    let context: Bound.Context?
    let eventName: String

    init(tracer: Bound, context: Bound.Context?, eventName: String) {
        self.tracer = tracer
        self.context = context
        self.eventName = eventName
    }

    var hasScope: Bool { true }

    func record(_ event: TraceEvent) {
        tracer.record(event)
    }

    @inline(__always)
    nonisolated(nonsending) func withHop(
        _ hop: Hop,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await tracer._withHop(hop, context: context, body)
    }

    var tracerName: String { _typeName(Bound.self, qualified: false) }

    var storedContext: [String: String] { context.map(tracer.storedContext(of:)) ?? [:] }
}

/// A send's own tracer (``SendOptions/tracer``) with its binder, made once when the tracer is set,
/// so that options reused for many sends decide the tracer's kind once.
final class TracerBinding: Sendable {
    let tracer: any Tracer
    let binder: TraceBinder

    init(_ tracer: any Tracer) {
        self.tracer = tracer
        self.binder = TraceBinder(tracer)
    }
}

/// How a tracer binds to the sends it accepts, decided once per tracer (when its system is
/// created, or when a send names its own tracer): whether it is a ``MultiplexTracer``, a
/// ``ScopingTracer`` or a plain ``Tracer`` is found out here, not per send.
struct TraceBinder: Sendable {
    /// Asks the tracer's gate and, when it accepts, binds it to the send in the current task.
    /// `eventName` is the event's ``Event/traceName``, computed on first need and shared by the
    /// tracers of a multiplexer.
    private let bindSend:
        @Sendable (any Event, EventSource, [String: String]?, inout String?) -> (any ActiveTrace)?

    /// The binder of `tracer`.
    init(_ tracer: any Tracer) {
        if let multiplex = tracer as? MultiplexTracer {
            let binders = multiplex.tracers.map(TraceBinder.init)
            bindSend = { event, source, stored, eventName in
                MultiplexTracer.bindAccepting(
                    binders, event, from: source, stored: stored, eventName: &eventName)
            }
        } else if let scoping = tracer as? any ScopingTracer {
            bindSend = scoping.scopedBinder()
        } else {
            bindSend = tracer.plainBinder()
        }
    }

    /// The tracer bound to one send of `event` from `source`, or `nil` when it declined.
    func bind(
        _ event: any Event, from source: EventSource, stored: [String: String]? = nil,
        eventName: inout String?
    ) -> (any ActiveTrace)? {
        bindSend(event, source, stored, &eventName)
    }

    /// The tracer bound to one send, or `nil` when it declined. `stored` is the context a store
    /// kept with a recovered post (``ActiveTrace/storedContext``), read back instead of capturing
    /// the current task's; `nil` for every other send.
    func bind(_ event: any Event, from source: EventSource, stored: [String: String]? = nil) -> (
        any ActiveTrace
    )? {
        var eventName: String?
        return bindSend(event, source, stored, &eventName)
    }
}

extension Tracer {
    /// A binder that asks this tracer's gate and, when it accepts, names the event (once, shared
    /// with the other tracers of a multiplexer) and binds the send with `bind`, in the sender's
    /// task.
    fileprivate func binder(
        _ bind: @escaping @Sendable (Self, String, [String: String]?) -> any ActiveTrace
    ) -> @Sendable (any Event, EventSource, [String: String]?, inout String?) -> (any ActiveTrace)? {
        { event, source, stored, eventName in
            guard self.shouldTrace(event, from: source) else { return nil }
            let name = eventName ?? event.traceName
            eventName = name
            return bind(self, name, stored)
        }
    }

    /// Binds a plain tracer: its point events, with nothing around the hops.
    fileprivate func plainBinder()
        -> @Sendable (any Event, EventSource, [String: String]?, inout String?) -> (any ActiveTrace)?
    {
        binder { tracer, name, _ in UnscopedTrace(tracer: tracer, eventName: name) }
    }
}

extension ScopingTracer {
    /// Binds a scoping tracer: its context captured in the sender's task (or, for a recovered
    /// post, read back from what its store kept), its scope around each hop.
    fileprivate func scopedBinder()
        -> @Sendable (any Event, EventSource, [String: String]?, inout String?) -> (any ActiveTrace)?
    {
        binder { tracer, name, stored in
            let context = stored.map { tracer.context(restoredFrom: $0) } ?? tracer.captureContext()
            return BoundTrace(tracer: tracer, context: context, eventName: name)
        }
    }
}

/// A tracer bound, for one send it accepted, to what it captured in the sender's task.
///
/// Each traced send holds one of these (in ``EventContext``), so that each hop reaches the tracer
/// without a cast and without recomputing anything per send: the gate, the cast (is it a
/// ``ScopingTracer``?), the context capture and the event's ``Event/traceName`` all happen once,
/// in ``Tracer/activeTrace(for:from:eventName:)``. Untraced sends, and sends every tracer
/// declined, hold none.
protocol ActiveTrace: Sendable {
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

    /// The tracer's type name, for ``TracerViolation``.
    var tracerName: String { get }
}

/// A plain ``Tracer``: point events only, no scope around the handlers.
struct UnscopedTrace<Bound: Tracer>: ActiveTrace {
    let tracer: Bound
    let eventName: String

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
}

/// A ``ScopingTracer`` and what it captured: each hop runs inside its scope.
struct BoundTrace<Bound: ScopingTracer>: ActiveTrace {
    let tracer: Bound
    let context: Bound.Context?
    let eventName: String

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
}

extension Tracer {
    /// Binds this tracer to one send, if it accepts it: asks ``shouldTrace(_:from:)`` once and,
    /// when it accepts, lets a ``ScopingTracer`` capture its context here, in the current task.
    /// Returns `nil` when the tracer declined. Called once per send, in the sender's task; the
    /// only place a tracer is cast.
    ///
    /// `eventName` is the event's ``Event/traceName``, computed on first need and shared by the
    /// tracers of a ``MultiplexTracer``.
    func activeTrace(
        for event: any Event, from source: EventSource, eventName: inout String?
    ) -> (any ActiveTrace)? {
        // A metatype comparison first: the dynamic cast is paid by multiplexers only.
        if Self.self == MultiplexTracer.self, let multiplex = self as? MultiplexTracer {
            return multiplex.bindAccepting(event, from: source, eventName: &eventName)
        }
        guard shouldTrace(event, from: source) else { return nil }
        let name = eventName ?? event.traceName
        eventName = name
        // The conformance check costs more than the rest of the binding together (about as much
        // as a hop's clock reads), also when it fails: a plain tracer's type is remembered.
        let type = ObjectIdentifier(Self.self)
        if !plainTracerTypes.withLock({ $0.contains(type) }) {
            if let scoping = self as? any ScopingTracer {
                return scoping.bindScope(eventName: name)
            }
            plainTracerTypes.withLock { _ = $0.insert(type) }
        }
        return UnscopedTrace(tracer: self, eventName: name)
    }

    /// ``activeTrace(for:from:eventName:)`` for a send with no trace bound yet.
    func activeTrace(for event: any Event, from source: EventSource) -> (any ActiveTrace)? {
        var eventName: String?
        return activeTrace(for: event, from: source, eventName: &eventName)
    }
}

/// The types of the tracers bound so far that are not ``ScopingTracer``s.
private let plainTracerTypes = Locked<Set<ObjectIdentifier>>([])

extension ScopingTracer {
    /// Captures this tracer's context in the current task and binds it for one send.
    fileprivate func bindScope(eventName: String) -> any ActiveTrace {
        BoundTrace(tracer: self, context: captureContext(), eventName: eventName)
    }
}

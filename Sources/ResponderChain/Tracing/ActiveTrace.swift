/// A tracer bound, for one send, to what it captured in the sender's task.
///
/// Each traced send holds one of these (in ``EventContext``), so that each hop reaches
/// the tracer without a cast: the one dynamic cast (is it a ``ScopingTracer``?) happens once, in
/// ``Tracer/bindCapturedContext()``. Untraced sends hold none.
protocol ActiveTrace: Sendable {
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

    func record(_ event: TraceEvent) {
        tracer.record(event)
    }

    nonisolated(nonsending) func withHop(
        _ hop: Hop,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await body()
    }

    var tracerName: String { String(describing: Bound.self) }
}

/// A ``ScopingTracer`` and what it captured: each hop runs inside its scope.
struct BoundTrace<Bound: ScopingTracer>: ActiveTrace {
    let tracer: Bound
    let context: Bound.Context?

    func record(_ event: TraceEvent) {
        tracer.record(event)
    }

    nonisolated(nonsending) func withHop(
        _ hop: Hop,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await tracer.withHop(HopScope(hop: hop, context: context), body)
    }

    var tracerName: String { String(describing: Bound.self) }
}

extension Tracer {
    /// Binds this tracer for one send: a ``ScopingTracer`` captures its context here, in the
    /// current task. Called once per traced send; the only place a tracer is cast.
    func bindCapturedContext() -> any ActiveTrace {
        if let scoping = self as? any ScopingTracer {
            return scoping.bindScope()
        }
        return UnscopedTrace(tracer: self)
    }
}

extension ScopingTracer {
    /// Captures this tracer's context in the current task and binds it for one send.
    fileprivate func bindScope() -> any ActiveTrace {
        BoundTrace(tracer: self, context: captureContext())
    }
}

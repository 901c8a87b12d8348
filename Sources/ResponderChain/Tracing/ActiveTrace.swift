/// A tracer bound, for one send, to the context it captured in the sender's task.
///
/// The system holds one of these per traced send (in ``EventContext``), so that each hop hands the
/// tracer its own typed ``Tracer/Context`` without a cast. Untraced sends hold none.
protocol ActiveTrace: Sendable {
    /// Forwards a point event to the tracer.
    func record(_ event: TraceEvent)

    /// Runs the tracer's scope around `body` for `hop`, with the captured context.
    nonisolated(nonsending) func withHop(
        _ hop: Hop,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition

    /// The tracer's type name, for ``TracerViolation``.
    var tracerName: String { get }
}

/// A ``Tracer`` and what it captured.
struct BoundTrace<Bound: Tracer>: ActiveTrace {
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
    /// Captures this tracer's context in the current task and binds it for one send.
    func bindCapturedContext() -> any ActiveTrace {
        BoundTrace(tracer: self, context: captureContext())
    }
}

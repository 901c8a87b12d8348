/// Several tracers on one chain (or one send), each deciding for itself: like swift-log's
/// `MultiplexLogHandler`, for tracers.
///
/// ```swift
/// let recorder = RecordingTracer()
/// let chain = EventSystem(tracer: MultiplexTracer([SpanTracer(), LoggingTracer(logger: log), recorder]))
/// ```
///
/// What a send through a multiplexer does:
///
/// - **Each tracer's gate decides for itself.** When the event is sent (or posted), each tracer's
///   ``Tracer/shouldTrace(_:from:)`` is asked once, in order, in the sender's task; a
///   ``ScopingTracer`` that accepts captures its context right after its own gate. The send is
///   traced by the tracers that accepted it, from `sent` to `finished`; if none accepted it, it is
///   untraced.
/// - **Point events go to the accepting tracers, in order**: each event reaches the first
///   accepting tracer, then the second, and so on, before routing goes on.
/// - **Scopes nest in order, the first outermost.** The accepting ``ScopingTracer``s wrap each hop
///   one inside the other: the first one's `withHop` runs the second one's, …, and the last one's
///   runs the handlers. Each scope gets the context its own tracer captured. Plain tracers add no
///   scope.
/// - **The contract holds for each scope.** A scope that calls its `body` a second time gets a
///   ``ResponderChainError`` (``ResponderChainError/Code/tracerRanHandlersAgain``, naming that tracer) and the
///   handlers do not run again; a scope that never calls it (so the handlers never ran) ends the
///   send ``Outcome/failed(_:)`` with a ``ResponderChainError`` (``ResponderChainError/Code/tracerSkippedHandlers``)
///   naming that tracer, exactly as with one tracer.
///
/// Multiplexers nest: a multiplexer among the tracers contributes its own accepting tracers, in
/// its place in the order.
///
/// The routing does not call the multiplexer's own ``shouldTrace(_:from:)`` or ``record(_:)``: it
/// asks each tracer's gate and reports to the accepting ones. Those two methods serve code that
/// calls a tracer directly (a wrapper of your own): the gate accepts when any tracer does, and
/// `record` forwards to every tracer.
public struct MultiplexTracer: Tracer {
    /// The tracers, in order: the order of their gates, of their point events, and of their scopes
    /// (the first outermost).
    public let tracers: [any Tracer]

    /// A tracer that reports to each of `tracers` that accepts a send, in order.
    public init(_ tracers: [any Tracer]) {
        self.tracers = tracers
    }

    /// Whether any of the tracers accepts the send (each gate is asked until one accepts).
    /// Routing asks each tracer's gate itself instead (see above).
    public func shouldTrace(_ event: any Event, from source: EventSource) -> Bool {
        tracers.contains { $0.shouldTrace(event, from: source) }
    }

    /// Forwards `event` to every tracer, in order. Routing reports to the accepting tracers
    /// instead (see above).
    public func record(_ event: TraceEvent) {
        for tracer in tracers {
            tracer.record(event)
        }
    }

    /// Binds the tracers that accept the send, in order: each gate is asked once, and an accepting
    /// ``ScopingTracer`` captures its context right after its gate. `nil` when none accepts; the
    /// accepting tracer alone when only one does.
    static func bindAccepting(
        _ binders: [TraceBinder], _ event: any Event, from source: EventSource, stored: [String: String]?,
        eventName: inout String?
    ) -> (any ActiveTrace)? {
        var accepted: [any ActiveTrace] = []
        for binder in binders {
            if let trace = binder.bind(event, from: source, stored: stored, eventName: &eventName) {
                accepted.append(trace)
            }
        }
        guard let first = accepted.first, let eventName else { return nil }
        return accepted.count == 1 ? first : MultiplexedTrace(accepted, eventName: eventName)
    }
}

/// The tracers of a ``MultiplexTracer`` that accepted one send.
final class MultiplexedTrace: ActiveTrace {
    /// Every accepting tracer, in order: they receive the point events.
    let traces: [any ActiveTrace]
    /// The accepting tracers with a scope, in order: they wrap each hop, the first outermost.
    let scopes: [any ActiveTrace]
    let eventName: String

    init(_ traces: [any ActiveTrace], eventName: String) {
        self.traces = traces
        self.scopes = traces.filter(\.hasScope)
        self.eventName = eventName
    }

    var hasScope: Bool { !scopes.isEmpty }

    /// What each tracer keeps, together (each tracer names its own keys).
    var storedContext: [String: String] {
        traces.reduce(into: [:]) { stored, trace in stored.merge(trace.storedContext) { first, _ in first } }
    }

    func record(_ event: TraceEvent) {
        for trace in traces {
            trace.record(event)
        }
    }

    /// How far the nested scopes of one hop got.
    private struct Nesting {
        /// How many scopes, from the outermost, called their `body`: the scope at this index (if
        /// any) is the one that did not.
        var entered = 0
        /// What that scope threw instead of calling its `body`, if anything.
        var skippedError: (any Error)?
    }

    /// Runs the scopes one inside the other around `body`. When the handlers did not run because
    /// one scope did not call its `body`, throws ``HandlersSkipped`` naming that scope's tracer,
    /// whatever the scopes around it returned or threw.
    nonisolated(nonsending) func withHop(
        _ hop: Hop,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        var nesting = Nesting()
        let disposition: Disposition
        do {
            disposition = try await withScope(0, hop: hop, nesting: &nesting, body)
        } catch {
            guard nesting.entered < scopes.count else { throw error }
            throw HandlersSkipped(
                tracer: scopes[nesting.entered].tracerName, underlying: nesting.skippedError)
        }
        guard nesting.entered < scopes.count else { return disposition }
        throw HandlersSkipped(tracer: scopes[nesting.entered].tracerName, underlying: nil)
    }

    /// The scope at `index` around the ones inside it (and, inside the last, `body`), each scope's
    /// `body` refused a second call.
    private nonisolated(nonsending) func withScope(
        _ index: Int,
        hop: Hop,
        nesting: inout Nesting,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        guard index < scopes.count else { return try await body() }
        let scope = scopes[index]
        var calls = 0
        do {
            return try await scope.withHop(hop) {
                calls += 1
                guard calls == 1 else {
                    throw ResponderChainError.tracerRanHandlersAgain(hop: hop, tracer: scope.tracerName)
                }
                nesting.entered = index + 1
                return try await withScope(index + 1, hop: hop, nesting: &nesting, body)
            }
        } catch {
            if calls == 0 { nesting.skippedError = error }
            throw error
        }
    }

    var tracerName: String { _typeName(MultiplexTracer.self, qualified: false) }
}

/// Thrown by a ``MultiplexedTrace``'s hop when one of its scopes did not call its `body`: which
/// tracer's scope, and what it threw instead. The hop reports it as a ``ResponderChainError``.
struct HandlersSkipped: Error {
    /// The type name of the tracer whose scope did not call its `body`.
    let tracer: String
    /// What that scope threw, if it threw.
    let underlying: (any Error)?
}

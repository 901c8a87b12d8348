/// Observes events as they travel: receives the point events of every send it accepts.
///
/// Install a tracer on an ``EventSystem`` (for a chain) or in ``SendOptions`` (for one send).
/// With none installed, a send makes no trace records and reads no clock.
///
/// ``record(_:)`` receives every point event of a send, in order: ``TraceEvent/sent(_:)``, then
/// ``TraceEvent/hopEntered(_:)`` and ``TraceEvent/hopLeft(_:)`` for each hop, then
/// ``TraceEvent/deadLettered(_:)`` if the event went to a dead-letter sink, and always
/// ``TraceEvent/finished(_:)`` last. It is the one requirement with no default.
///
/// ```swift
/// struct HopLogger: Tracer {
///     let sink: @Sendable (String) -> Void
///     func record(_ event: TraceEvent) {
///         if case .hopLeft(let record) = event { sink(record.description) }
///     }
/// }
///
/// let chain = EventSystem(tracer: HopLogger { print($0) })
/// ```
///
/// ``shouldTrace(_:from:)`` is the tracer's gate: asked once per send, before anything is
/// traced, it may decline the send, which then runs as an untraced send. The default accepts
/// every send.
///
/// A plain tracer runs no code around the handlers. To wrap each hop (open a span, bind
/// task-locals) conform to ``ScopingTracer`` instead: a method named `withHop` on a type that is
/// only a `Tracer` is an ordinary method that no send ever calls. To install several tracers on
/// one chain, combine them with a ``MultiplexTracer``.
///
/// A tracer observes; it does not route. ``record(_:)`` runs inline in the sending task: keep it
/// short (append to a buffer, hand off to a logger).
public protocol Tracer: Sendable {
    /// Receives a point event, inline, in the task that routes the event.
    ///
    /// ```swift
    /// func record(_ event: TraceEvent) {
    ///     if case .finished(let outcome) = event, !outcome.isHandled { log(outcome) }
    /// }
    /// ```
    func record(_ event: TraceEvent)

    /// Whether this tracer traces the send of `event` from `source`: `true` to trace it, `false`
    /// to decline it. The default accepts every send.
    ///
    /// The system asks once per send, when the event is sent (or posted), in the sender's task,
    /// before any hop and before a ``ScopingTracer`` captures its context. The answer holds for
    /// the whole send: an accepted send is reported from ``TraceEvent/sent(_:)`` to
    /// ``TraceEvent/finished(_:)``, a declined one not at all (no point event, no scope, no
    /// context captured), even if the tracer would answer otherwise later. A declined send takes
    /// the untraced path. A posted event is asked about at post time, not when it is delivered.
    ///
    /// It runs on every send: decide from what is at hand (a flag, a counter, the event's type)
    /// rather than building `event.traceName`.
    ///
    /// Sampling one send in `n` (a tracer switched off by a flag answers
    /// `isEnabled.load(ordering: .relaxed)` the same way):
    ///
    /// ```swift
    /// import Synchronization
    ///
    /// final class SampledTracer: Tracer {
    ///     let n: UInt64
    ///     let inner: any Tracer
    ///     private let sends = Atomic<UInt64>(0)
    ///
    ///     init(oneIn n: UInt64, _ inner: any Tracer) { self.n = n; self.inner = inner }
    ///
    ///     func shouldTrace(_ event: any Event, from source: EventSource) -> Bool {
    ///         sends.wrappingAdd(1, ordering: .relaxed).oldValue % n == 0
    ///     }
    ///
    ///     func record(_ event: TraceEvent) { inner.record(event) }
    /// }
    /// ```
    ///
    /// Spell the signature exactly as above: a method with another signature (say, taking
    /// `some Event`) is an ordinary method beside the default, and the tracer accepts every send.
    func shouldTrace(_ event: any Event, from source: EventSource) -> Bool
}

extension Tracer {
    /// Accepts every send.
    public func shouldTrace(_ event: any Event, from source: EventSource) -> Bool { true }
}

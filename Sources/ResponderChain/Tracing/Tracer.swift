/// Observes events as they travel: receives the point events of every send.
///
/// Install a tracer on an ``EventSystem`` (for a chain) or in ``SendOptions`` (for one send).
/// With none installed, routing pays one `nil` check per hop: no allocation, no clock read.
///
/// ``record(_:)`` receives every point event of a send, in order: ``TraceEvent/sent(_:)``, then
/// ``TraceEvent/hopEntered(_:)`` and ``TraceEvent/hopLeft(_:)`` for each hop, then
/// ``TraceEvent/deadLettered(_:)`` if the event went to a dead-letter sink, and always
/// ``TraceEvent/finished(_:)`` last. It is the only requirement, and it has no default.
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
/// A plain tracer runs no code around the handlers. To wrap each hop (open a span, bind
/// task-locals) conform to ``ScopingTracer`` instead: a method named `withHop` on a type that is
/// only a `Tracer` is an ordinary method that no send ever calls.
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
}

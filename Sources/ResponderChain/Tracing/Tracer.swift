/// Observes events as they travel: a scope around every hop, and point events.
///
/// Install a tracer on an ``EventSystem`` (for a chain) or in ``SendOptions`` (for one send).
/// With none installed, routing pays one `nil` check per hop: no allocation, no clock read.
///
/// A tracer has three parts, two of them optional:
/// - ``record(_:)`` receives every point event of a send, in order: ``TraceEvent/sent(_:)``,
///   then ``TraceEvent/hopEntered(_:)`` and ``TraceEvent/hopLeft(_:)`` for each hop, then
///   ``TraceEvent/deadLettered(_:)`` if the event went to a dead-letter sink, and always
///   ``TraceEvent/finished(_:)`` last.
/// - ``withHop(_:_:)`` wraps the handlers of each hop (like `withSpan`, or a middleware's
///   `handle(_:context:next:)`): open a span or bind task-locals there. Defaults to calling `body`.
/// - ``captureContext()`` takes what the scope needs from the sender's task (a `ServiceContext`,
///   a request identifier) when the event is sent or posted; the scope gets it back in
///   ``HopScope/context``, also when a posted event is delivered later from another task, where
///   task-locals do not follow. Defaults to none.
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
/// A tracer observes; it does not route. What a hop did is what its handler returned or threw,
/// whatever ``withHop(_:_:)`` returns. A scope that never runs `body` ends the send
/// ``Outcome/failed(_:)`` with a ``TracerViolation``; a second call of `body` throws a
/// ``TracerViolation`` without running the handler again. ``record(_:)`` runs inline in the
/// sending task: keep it short (append to a buffer, hand off to a logger).
public protocol Tracer: Sendable {
    /// What ``captureContext()`` takes from the sender's task and ``HopScope/context`` gives back.
    /// Defaults to `Never`: nothing is captured.
    associatedtype Context: Sendable = Never

    /// Captures, in the sender's task, what the hop scopes will need: called once per send, when
    /// the event is sent (or posted), before any hop. Defaults to `nil`.
    ///
    /// ```swift
    /// func captureContext() -> ServiceContext? { ServiceContext.current }
    /// ```
    func captureContext() -> Context?

    /// Wraps one hop: the responder's handlers run inside `body`, on the responder's isolation.
    ///
    /// Open a span or bind task-locals here; ``HopScope/context`` holds what
    /// ``captureContext()`` captured when the event was sent. Call `body` exactly once and
    /// return (or rethrow) what it returns. Defaults to `try await body()`.
    nonisolated(nonsending) func withHop(
        _ scope: HopScope<Context>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition

    /// Receives a point event, inline, in the task that routes the event.
    func record(_ event: TraceEvent)
}

extension Tracer {
    /// Captures nothing.
    public func captureContext() -> Context? { nil }

    /// Runs the hop with no scope around it.
    public nonisolated(nonsending) func withHop(
        _ scope: HopScope<Context>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await body()
    }
}

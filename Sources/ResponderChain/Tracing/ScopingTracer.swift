/// A ``Tracer`` that also wraps every hop: the responder's handlers run inside its
/// ``withHop(_:_:)``, where it opens a span or binds task-locals (like `withSpan`, or a
/// middleware's `handle(_:context:next:)`).
///
/// - ``captureContext()`` takes what the scope needs from the sender's task (a `ServiceContext`,
///   a request identifier) once per send, when the event is sent or posted; the scope gets it
///   back in ``Hop/Scope/context``, also when a posted event is delivered later from another task,
///   where task-locals do not follow.
/// - ``withHop(_:_:)`` wraps one hop. It has **no default**: a `withHop` whose isolation does not
///   match the requirement is not mistaken for an unrelated method, it is a compile error
///   (`type '…' does not conform to protocol 'ScopingTracer'`).
///
/// ```swift
/// struct RequestTracer: ScopingTracer {
///     @TaskLocal static var requestID: String?
///
///     func captureContext() -> String? { Self.requestID }
///
///     nonisolated(nonsending) func withHop(
///         _ scope: Hop.Scope<String>,
///         _ body: nonisolated(nonsending) () async throws -> Disposition
///     ) async throws -> Disposition {
///         try await Self.$requestID.withValue(scope.context) { try await body() }
///     }
///
///     func record(_ event: TraceEvent) {}
/// }
/// ```
///
/// Spell `nonisolated(nonsending)` on the method and on `body`, as above. In a module built with
/// `NonisolatedNonsendingByDefault`, that is the default: write both with nothing spelled. A
/// `body` without it does not compile. A method without it (a plain `async` method taking the
/// `nonisolated(nonsending)` body) compiles and is called, but runs on the global executor
/// instead of the responder's, switching executors at every hop.
///
/// A scope that needs nothing from the sender's task declares `Hop.Scope<Never>` and leaves out
/// ``captureContext()`` (see the extension where `Context == Never`).
///
/// A tracer observes; it does not route. What a hop did is what its handlers returned or threw,
/// whatever ``withHop(_:_:)`` returns. A scope that never runs `body` ends the send
/// ``Outcome/failed(_:)`` with a ``ResponderChainError``; a second call of `body` throws a
/// ``ResponderChainError`` without running the handlers again.
public protocol ScopingTracer: Tracer {
    /// What ``captureContext()`` takes from the sender's task and ``Hop/Scope/context`` gives back;
    /// `Never` for a scope that captures nothing.
    associatedtype Context: Sendable

    /// Captures, in the sender's task, what the hop scopes will need: called once per send, when
    /// the event is sent (or posted), before any hop.
    ///
    /// ```swift
    /// func captureContext() -> ServiceContext? { ServiceContext.current }
    /// ```
    func captureContext() -> Context?

    /// The context as text a store can keep with a posted event (a W3C `traceparent`, say), so
    /// that the event's delivery after a restart runs in the same trace
    /// (``context(restoredFrom:)`` reads it back). Keys are the tracer's own: name them so that
    /// they do not clash with another tracer's in a ``MultiplexTracer``. The default keeps
    /// nothing.
    ///
    /// ```swift
    /// func storedContext(of requestID: String) -> [String: String] { ["request-id": requestID] }
    /// ```
    func storedContext(of context: Context) -> [String: String]

    /// The context that text written by ``storedContext(of:)`` names, for the delivery of a
    /// stored post after a restart; `nil` (the default) when it names none.
    ///
    /// ```swift
    /// func context(restoredFrom stored: [String: String]) -> String? { stored["request-id"] }
    /// ```
    func context(restoredFrom stored: [String: String]) -> Context?

    /// Wraps one hop: the responder's handlers run inside `body`, on the responder's isolation.
    ///
    /// Open a span or bind task-locals here; ``Hop/Scope/context`` holds what
    /// ``captureContext()`` captured when the event was sent. Call `body` exactly once and
    /// return (or rethrow) what it returns. There is no default.
    ///
    /// ```swift
    /// nonisolated(nonsending) func withHop(
    ///     _ scope: Hop.Scope<ServiceContext>,
    ///     _ body: nonisolated(nonsending) () async throws -> Disposition
    /// ) async throws -> Disposition {
    ///     try await withSpan(scope.responder.label, context: scope.context ?? .topLevel) { _ in
    ///         try await body()
    ///     }
    /// }
    /// ```
    nonisolated(nonsending) func withHop(
        _ scope: Hop.Scope<Context>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition

    /// Machinery, provided for every scoping tracer: do not implement it. Runs ``withHop(_:_:)``
    /// with the scope of `hop` and what ``captureContext()`` captured.
    ///
    /// The default is inlinable, so that its witness is specialized where a tracer conforms and
    /// no hop builds a `Hop.Scope<Context>` in generic code.
    nonisolated(nonsending) func _withHop(
        _ hop: Hop,
        context: Context?,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition
}

extension ScopingTracer {
    /// Keeps nothing: a stored post's delivery after a restart has no context.
    public func storedContext(of context: Context) -> [String: String] { [:] }

    /// Reads nothing back.
    public func context(restoredFrom stored: [String: String]) -> Context? { nil }

    /// Builds the hop's scope and runs ``withHop(_:_:)``.
    @inlinable
    public nonisolated(nonsending) func _withHop(
        _ hop: Hop,
        context: Context?,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await withHop(Hop.Scope(hop: hop, context: context), body)
    }
}

/// A scope that captures nothing needs no ``ScopingTracer/captureContext()``.
///
/// This default cannot hide a mistake: it applies only when the tracer's own ``ScopingTracer/withHop(_:_:)``
/// takes a `Hop.Scope<Never>`, whose context is always `nil`; a tracer whose scope wants a
/// context must capture it itself.
///
/// ```swift
/// struct HopMarker: ScopingTracer {
///     @TaskLocal static var hop: Int?
///
///     nonisolated(nonsending) func withHop(
///         _ scope: Hop.Scope<Never>,
///         _ body: nonisolated(nonsending) () async throws -> Disposition
///     ) async throws -> Disposition {
///         try await Self.$hop.withValue(scope.number) { try await body() }
///     }
///
///     func record(_ event: TraceEvent) {}
/// }
/// ```
extension ScopingTracer where Context == Never {
    /// Captures nothing.
    public func captureContext() -> Never? { nil }
}

/// Code that runs around the handlers of a hop: before them, after them, or instead of them.
///
/// Middleware is the one way to put code around a hop, at two scopes:
/// - **system**: `EventSystem(middleware: [...])` runs around every hop of every send through the
///   system, in both phases (see ``EventContext/Phase``), whether the responder has handlers for the
///   event or not;
/// - **responder**: `Strategies.use(_:)` runs around the handlers of that responder's table.
///
/// A middleware gets the event, the responder, the context and `next`, which runs the rest of the
/// hop: the middleware inside it, then the handlers. What it returns is the hop's
/// ``Disposition``; what it throws ends the send ``Outcome/failed(_:)`` at that hop (a
/// `CancellationError` thrown while the send is stopped ends it ``Outcome/cancelled(_:)`` or
/// ``Outcome/timedOut(_:)``, as from a handler).
///
/// A middleware may:
/// - call `next` and return what it returns (observe, measure);
/// - call `next` and return something else (turn a `.pass` into `.handled`);
/// - not call `next` and return a disposition of its own (deny: `.handled` stops the event
///   here, unseen by the handlers);
/// - catch what `next` throws and return a disposition instead;
/// - add information to `context.info` before or after `next`.
///
/// An authorization check in front of every responder that asks for one:
///
/// ```swift
/// struct RequireAdmin: HopMiddleware {
///     func handle(
///         _ event: any Event, at responder: any Responder, context: inout EventContext,
///         next: Next
///     ) async throws -> Disposition {
///         guard responder is any AdminOnly, context.info[Role.self] != .admin else {
///             return try await next(&context)
///         }
///         throw NotAuthorized(responder: ResponderID(responder))
///     }
/// }
///
/// let system = EventSystem(middleware: [RequireAdmin()])
/// ```
///
/// **Order around one hop**, outermost first:
/// 1. the responder's ``Responder/handlingLock``, if it handles one event at a time;
/// 2. the tracer's scope (``ScopingTracer/withHop(_:_:)``), which observes and does not route,
///    so a hop's traced duration includes all middleware;
/// 3. the system's middleware, the first in the array outermost;
/// 4. the responder's middleware (`Strategies.use(_:)`), the first registered outermost;
/// 5. the handlers.
///
/// ## Implementation requirements
///
/// - `handle` runs on the hop's isolation (the responder's actor, or the main actor), in the
///   sending task: keep it short, as a handler.
/// - Call `next` at most once. A middleware that calls it twice runs the handlers twice; the hop
///   keeps the information they added both times.
/// - Do not keep `next`: it is valid only during the call.
public protocol HopMiddleware: Sendable {
    /// The rest of a hop, as a middleware gets it: the middleware inside it, then the
    /// responder's handlers. It runs where the middleware runs.
    typealias Next =
        nonisolated(nonsending) @Sendable (_ context: inout EventContext) async throws -> Disposition

    /// Runs around one hop: `next` runs the middleware inside this one and then the responder's
    /// handlers; return the hop's disposition.
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - responder: The responder this hop visits.
    ///   - context: The send's context; ``EventContext/phase`` says which pass this hop is in.
    ///   - next: The rest of the hop.
    nonisolated(nonsending) func handle(
        _ event: any Event,
        at responder: any Responder,
        context: inout EventContext,
        next: Next
    ) async throws -> Disposition
}

extension EventContext {
    /// Runs `middleware`, outermost first, around the responder's own
    /// ``Responder/handle(_:context:)`` at `responder`'s hop: the system's scope.
    ///
    /// Inlined into each responder type's hop, so that the innermost middleware's `next` calls
    /// that type's `handle` directly, not through this function once more.
    @inlinable
    nonisolated(nonsending) static func run(
        _ middleware: ArraySlice<any HopMiddleware>,
        at responder: some Responder,
        event: any Event,
        context: inout EventContext
    ) async throws -> Disposition {
        guard let outermost = middleware.first else {
            return try await responder.handle(event, context: &context)
        }
        let inner = middleware.dropFirst()
        guard !inner.isEmpty else {
            return try await outermost.handle(event, at: responder, context: &context) { context in
                try await responder.handle(event, context: &context)
            }
        }
        return try await outermost.handle(event, at: responder, context: &context) { context in
            try await run(inner, at: responder, event: event, context: &context)
        }
    }

    /// Runs `middleware`, outermost first, around `handlers` at `responder`'s hop: the
    /// responder's scope, around its table. `handlers` is not escaping, so none of the closures
    /// is allocated.
    nonisolated(nonsending) static func run(
        _ middleware: ArraySlice<any HopMiddleware>,
        at responder: any Responder,
        event: any Event,
        context: inout EventContext,
        around handlers: HopMiddleware.Next
    ) async throws -> Disposition {
        guard let outermost = middleware.first else { return try await handlers(&context) }
        let inner = middleware.dropFirst()
        return try await outermost.handle(event, at: responder, context: &context) { context in
            try await run(inner, at: responder, event: event, context: &context, around: handlers)
        }
    }
}

/// Middleware written as a closure of the responder it runs at (`Strategies.use(_:)`), with the
/// responder's type erased; the closure enters the responder's isolation itself.
struct ClosureMiddleware: HopMiddleware {
    let body:
        nonisolated(nonsending) @Sendable (AnyObject, any Event, inout EventContext, Next) async throws
            -> Disposition

    nonisolated(nonsending) func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext, next: Next
    ) async throws -> Disposition {
        try await body(responder, event, &context, next)
    }
}

/// Code that runs around the handlers of every hop of a chain: before them, after them, or
/// instead of them.
///
/// Install wrappers on an ``EventSystem`` (`EventSystem(wrappers: [...])`); every hop of every
/// send through that system runs inside them, in both phases (see ``EventPhase``), whether the
/// responder has handlers for the event or not. A wrapper gets the event, the responder and the
/// context, and `next`, which runs the rest: the wrappers inside it, then the responder's own
/// wrappers and handlers. What it returns is the hop's ``Disposition``; what it throws ends the
/// send ``Outcome/failed(_:)`` at that hop (a `CancellationError` thrown while the send is
/// stopped ends it ``Outcome/cancelled(_:)`` or ``Outcome/timedOut(_:)``, as from a handler).
///
/// A wrapper may:
/// - call `next` and return what it returns (observe, measure);
/// - call `next` and return something else (turn a `.pass` into `.handled`);
/// - not call `next` and return a disposition of its own (deny: `.handled` stops the event
///   here, unseen by the handlers);
/// - catch what `next` throws and return a disposition instead (let ``Forwarded`` through: it
///   is not a failure but the outcome of the chain the hop handed the event to);
/// - add information to `context.info` before or after `next`.
///
/// An authorization check in front of every responder that asks for one:
///
/// ```swift
/// struct RequireAdmin: HopWrapper {
///     func handle(
///         _ event: any Event, at responder: any Responder, context: inout EventContext,
///         next: HopWrapperNext
///     ) async throws -> Disposition {
///         guard responder is any AdminOnly, context.info[Role.self] != .admin else {
///             return try await next(&context)
///         }
///         throw NotAuthorized(responder: ResponderID(responder))
///     }
/// }
///
/// let system = EventSystem(wrappers: [RequireAdmin()])
/// ```
///
/// **Order.** The system's wrappers run outermost, the first in the array outside the others;
/// inside them run the responder's own wrappers (`Strategies.wrap(_:)`), the first registered
/// outside the others; innermost, the handlers. A ``ScopingTracer``'s scope is outside them
/// all, so a hop's traced duration includes its wrappers.
///
/// ## Implementation requirements
///
/// - `handle` runs on the hop's isolation (the responder's actor, or the main actor), in the
///   sending task: keep it short, as a handler.
/// - Call `next` at most once. A wrapper that calls it twice runs the handlers twice; the hop
///   keeps the information they added both times.
/// - Do not keep `next`: it is valid only during the call.
public protocol HopWrapper: Sendable {
    /// Runs around one hop: `next` runs the wrappers inside this one and then the responder's
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
        next: HopWrapperNext
    ) async throws -> Disposition
}

/// The rest of a hop, as a wrapper gets it: the wrappers inside it, then the responder's
/// handlers. It runs where the wrapper runs.
public typealias HopWrapperNext =
    nonisolated(nonsending) @Sendable (_ context: inout EventContext) async throws -> Disposition

/// An actor-isolated object in a responder chain.
///
/// A responder has an asynchronous ``next`` link, read each time an event leaves it, and a table
/// of handler ``strategies`` that decides, for each event, whether to stop it, handle it and let
/// it continue, add information for the hops above, or pass it on.
///
/// ```
///   LineItem ──next──▶ Order ──next──▶ CustomerSession ──next──▶ Service (root)
///      ▲ send(ItemAdded)     handles, decorates      passes           catch-all
/// ```
///
/// Any actor-isolated type can be a responder:
/// - an `actor` (its own executor, or a shared one through `unownedExecutor`);
/// - a `@MainActor` class, through ``MainActorResponder``;
/// - a type isolated to another global actor, by implementing ``handle(_:context:)`` and
///   ``visit(_:context:)`` itself (see <doc:Guide>).
///
/// A minimal actor responder:
///
/// ```swift
/// actor Order: Responder {
///     let id: Int
///     let session: CustomerSession
///     var next: (any Responder)? { session }
///
///     static let strategies = Strategies<Order> {
///         $0.on(ItemAdded.self) { order, event, context in
///             context.info[OrderID.self] = order.id
///             return .handledAndContinue
///         }
///     }
/// }
/// ```
///
/// Only ``next`` is required. Everything else has a default: no handlers, not a root, the default
/// ``EventRouter``.
public protocol Responder: AnyObject, Sendable {
    /// The type whose ``strategies`` table this responder uses. Defaults to `Self`; a non-final
    /// class names itself here so that its subclasses share (or override) its table.
    associatedtype StrategyOwner: Responder = Self

    /// The next responder up the chain, or `nil` at the end of the chain.
    ///
    /// Read when an event leaves this responder, never computed up front, so a re-link made while
    /// an event is in flight takes effect at the next hop. A `nil` next ends the chain: the send
    /// ends ``Outcome/unhandled(_:)`` if this responder ``isRoot``, and
    /// ``Outcome/interrupted(_:)`` otherwise.
    var next: (any Responder)? { get async }

    /// Whether this responder properly ends a chain (an application, a service's top actor).
    ///
    /// A responder that is not a root and has no ``next`` is a broken chain: events that reach it
    /// are reported as interrupted. Defaults to `false`.
    nonisolated var isRoot: Bool { get }

    /// The handler table for this type, built once per type.
    ///
    /// Defaults to an empty table: a responder with no handlers passes every event on.
    static var strategies: Strategies<StrategyOwner> { get }

    /// The routing configuration (tracer, dead-letter sink, posting limits) for events this
    /// responder sends. Give every responder of a chain the same router to configure the chain.
    /// Defaults to ``EventRouter/default``.
    nonisolated var router: EventRouter { get }

    /// Whether this responder handles one event at a time. Defaults to `false`.
    ///
    /// Actors are reentrant: while a handler awaits, another event's handler may run on the same
    /// responder. Return `true` to make an event that arrives meanwhile wait until the running
    /// handler has finished; waiting events are handled in the order they arrived. A nested send
    /// made by the running handler itself (or a task it started, while the handler still runs)
    /// passes straight through; once the handler has returned, any send waits. Posts always
    /// wait: they are delivered by a task of their own. (A handler that awaits the *ticket* of a
    /// post through its own responder would wait for itself: post and move on.)
    ///
    /// ```swift
    /// actor Ledger: Responder {
    ///     nonisolated var handlesOneEventAtATime: Bool { true }
    ///     …
    /// }
    /// ```
    nonisolated var handlesOneEventAtATime: Bool { get }

    /// A short name for traces and printed outcomes. Defaults to the type's name.
    nonisolated var label: String { get }

    /// Runs this responder's handlers for one event and returns their decision.
    ///
    /// The default runs the ``strategies`` table on the responder's isolation. Implement it to
    /// decide some other way, like a `ChannelHandler` that overrides one method; return
    /// ``Disposition/pass`` for events you do not handle.
    nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition

    /// One hop: ``handle(_:context:)`` and then a read of ``next``, in one visit to the
    /// responder's isolation.
    ///
    /// The defaults for actors and ``MainActorResponder`` do exactly this; you implement it only
    /// for a responder isolated to another global actor, by calling
    /// ``EventContext/visit(_:event:)`` from that actor.
    nonisolated(nonsending) func visit(_ event: any Event, context: inout EventContext) async -> Visit
}

extension Responder {
    /// Not a root.
    public nonisolated var isRoot: Bool { false }

    /// The default router.
    public nonisolated var router: EventRouter { .default }

    /// Reentrant: events are not made to wait for each other.
    public nonisolated var handlesOneEventAtATime: Bool { false }

    /// The type's name (without its module).
    public nonisolated var label: String {
        // `_typeName` reads the runtime's cache of type names; `String(describing:)` would also
        // look for conformances first, which is many times slower on this per-outcome path.
        _typeName(Self.self, qualified: false)
    }
}

extension Responder where StrategyOwner == Self {
    /// No handlers: every event passes.
    public static var strategies: Strategies<Self> { Strategies() }
}

/// An actor-isolated object in a responder chain.
///
/// A responder has an asynchronous ``next`` link, read each time an event leaves it, and a table
/// of handler ``strategies-swift.type.property`` that decides, for each event, whether to stop it, handle it and let
/// it continue, add information for the hops above, or pass it on.
///
/// ```
///   LineItem ──next──▶ Order ──next──▶ CustomerSession ──next──▶ Service (root)
///      ▲ send(ItemAdded)     handles, decorates      passes           catch-all
/// ```
///
/// Conform one of three ways; each gives the hop its isolation:
/// - an `actor` conforms to `Responder` (its own executor, or a shared one through
///   `unownedExecutor`);
/// - a `@MainActor` class conforms to ``MainActorResponder``;
/// - a class isolated to another global actor conforms to ``GlobalActorResponder``.
///
/// A minimal actor responder:
///
/// ```swift
/// actor Order: Responder {
///     let id: Int
///     let session: CustomerSession
///     var next: (any Responder)? { session }
///
///     init(id: Int, session: CustomerSession) {
///         self.id = id
///         self.session = session
///     }
///
///     static let strategies = Strategies<Order> {
///         $0.on(ItemAdded.self) { order, event, context in
///             context.info[OrderID.self] = order.id   // only decorates…
///             return .pass                            // …so it passes: it handled nothing
///         }
///     }
/// }
/// ```
///
/// Only ``next`` is required. Everything else has a default: the type's handler table (empty
/// unless the type declares one), not a root, reentrant, the process-wide ``EventSystem``.
///
/// ## Implementation requirements
///
/// - Declare what you override `nonisolated` where the requirement is `nonisolated`
///   (``isRoot``, ``label``, ``handlingLock``, ``eventSystem``, the `strategies`
///   tables): they are read from outside the responder's isolation. In a `@MainActor` class this
///   includes `nonisolated static let strategies` (see ``MainActorResponder``).
/// - ``next`` must not block: it is read on every hop.
/// - Do not implement `_visit(_:context:)`: it is the hop itself, provided for each of the three
///   kinds of responder above.
public protocol Responder: AnyObject, Sendable {
    /// The type whose ``strategies-swift.type.property`` table this responder uses. Defaults to
    /// `Self`; only a non-final class names itself here, so that its subclasses share its table.
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

    /// The handler table of this type, built once and shared by all its instances.
    ///
    /// Defaults to an empty table: a responder with no handlers passes every event on.
    static var strategies: Strategies<StrategyOwner> { get }

    /// The handler table of this instance. Defaults to the type's
    /// ``strategies-swift.type.property``.
    ///
    /// Give an instance its own table to make two responders of one type behave differently:
    ///
    /// ```swift
    /// actor Worker: Responder {
    ///     nonisolated let strategies: Strategies<Worker>
    ///     var next: (any Responder)? { nil }
    ///     init(strategies: Strategies<Worker>) { self.strategies = strategies }
    /// }
    ///
    /// let loud = Worker(strategies: Strategies { $0.on(Ping.self) { _, _, _ in .handled } })
    /// let quiet = Worker(strategies: Strategies())
    /// ```
    nonisolated var strategies: Strategies<StrategyOwner> { get }

    /// The event system of the events this responder sends and posts: their tracer, dead-letter
    /// sink, posting limit and post queues. Read once per send, when it starts.
    ///
    /// Defaults to the process-wide ``EventSystem/default`` (see
    /// ``EventSystem/bootstrap(_:)``). A chain that needs its own names it once, in a protocol
    /// its responder types share (see ``EventSystem`` for the pattern). Views, controllers and
    /// windows follow their application's system.
    nonisolated(nonsending) var eventSystem: EventSystem { get async }

    /// The lock that makes this responder handle one event at a time, or `nil` (the default) for
    /// a reentrant responder.
    ///
    /// Actors are reentrant: while a handler awaits, another event's handler may run on the same
    /// responder. Store a ``HandlingLock`` to make an event that arrives meanwhile wait until the
    /// running handler has finished; waiting events are handled in the order they arrived. A
    /// nested send made by the running handler itself (or a task it started, while the handler
    /// still runs) passes straight through; once the handler has returned, any send waits. Posts
    /// always wait: they are delivered by a task of their own. A post through this responder
    /// whose ticket the running handler awaits would wait for itself: it ends
    /// ``Outcome/rejected(_:)`` with ``Outcome/Rejection/Reason/wouldDeadlock`` instead.
    ///
    /// The lock belongs to this responder: events held up here never delay another responder.
    /// Store it in a `let`, so that every read returns the same lock, and do not share it (see
    /// ``HandlingLock``).
    nonisolated var handlingLock: HandlingLock? { get }

    /// Machinery that turns a declaration of the old `handlesOneEventAtATime` into a compile
    /// error; `HandlingLock._NotDeclared` unless a type declares that property. Do not name it.
    associatedtype _HandlesOneEventAtATime: HandlingLock._Replacement = HandlingLock._NotDeclared

    /// Replaced by `handlingLock`: a responder declares `nonisolated let handlingLock:
    /// HandlingLock? = HandlingLock()` to handle one event at a time.
    ///
    /// This requirement exists only so that the old declaration does not compile into a
    /// different meaning: a type that still declares `handlesOneEventAtATime` (as a `Bool`, in
    /// its body or in any extension) fails to compile with an error that names `handlingLock`,
    /// instead of silently becoming reentrant. The library never reads it. Machinery, kept out
    /// of the documentation: Docs/Migration.md lists it.
    @_documentation(visibility: internal)
    @available(*, deprecated, renamed: "handlingLock")
    nonisolated var handlesOneEventAtATime: _HandlesOneEventAtATime { get }

    /// A short name for traces and printed outcomes. Defaults to the type's name.
    nonisolated var label: String { get }

    /// Whether this responder takes part in the capture pass of the sends that pass through it
    /// (see ``EventContext/Phase``). Read for each responder on the chain when a send of a system that
    /// runs the capture pass starts. Defaults to whether its
    /// ``strategies-swift.property`` table has capture handlers.
    ///
    /// A responder that implements ``handle(_:context:)`` itself returns `true` here to be
    /// visited in the capture pass too, and reads ``EventContext/phase`` to tell the passes
    /// apart.
    nonisolated(nonsending) var capturesEvents: Bool { get async }

    /// Runs this responder's handlers for one event and returns their decision.
    ///
    /// The default for actors and ``MainActorResponder``s runs the instance's
    /// ``strategies-swift.property`` table on the responder's isolation. Implement it to decide
    /// some other way, like a `ChannelHandler` that overrides one method; return
    /// ``Disposition/pass`` for events you do not handle. A ``GlobalActorResponder`` implements it.
    nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition

    /// The hop itself: ``handle(_:context:)`` and then a read of ``next``, in one visit to the
    /// responder's isolation; returns the next responder. Machinery: provided for actors,
    /// ``MainActorResponder`` and ``GlobalActorResponder``; do not implement it.
    nonisolated(nonsending) func _visit(_ event: any Event, context: inout EventContext) async
        -> (any Responder)?
}

extension Responder {
    /// Not a root.
    public nonisolated var isRoot: Bool { false }

    /// The process-wide system, ``EventSystem/default``.
    public nonisolated var eventSystem: EventSystem { .default }

    /// The type's table, shared by all its instances.
    public nonisolated var strategies: Strategies<StrategyOwner> { Self.strategies }

    /// No lock: reentrant, events are not made to wait for each other.
    public nonisolated var handlingLock: HandlingLock? { nil }

    /// Whether the instance's table has capture handlers.
    public nonisolated var capturesEvents: Bool { strategies.capturesEvents }

    /// The type's name (without its module).
    public nonisolated var label: String {
        // Not `String(describing:)`, which searches conformances first: this runs per outcome.
        _typeName(Self.self, qualified: false)
    }

    /// The hop of a responder with no isolation of its own (a `Sendable` class whose handlers
    /// are `nonisolated`): it runs where the route runs.
    @inlinable
    public nonisolated(nonsending) func _visit(_ event: any Event, context: inout EventContext) async
        -> (any Responder)?
    {
        await context.hop(at: self, event: event)
    }
}

extension Responder where StrategyOwner == Self {
    /// No handlers: every event passes.
    public static var strategies: Strategies<Self> { Strategies() }

    /// The default ``handle(_:context:)`` of actors, main-actor and global-actor responders: the
    /// type's table, tried first without suspending (a synchronous handler on its owner's
    /// isolation, or no entry, settles the usual hop with the table read in place), then in full.
    @inlinable
    @inline(__always)
    nonisolated(nonsending) func runOwnStrategies(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        if let disposition = try strategies.runWithoutSuspending(
            on: self, from: #isolation, event: event, context: &context)
        {
            return disposition
        }
        return try await strategies.run(on: self, from: #isolation, event: event, context: &context)
    }
}

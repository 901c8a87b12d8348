/// Registers handlers on one interface responder, typed by that responder's own class.
///
/// Get one from ``EventHandling/handlers``. Everything it registers goes into the responder's
/// ``InterfaceResponder/handlerTable`` — the core's `Strategies` table, one per instance — and
/// runs the way a core responder's table runs: the entry for the event's type (or, for a
/// `NamedEvent`, its name); else the proxy's handlers; else the catch-all; else nothing.
///
/// ```swift
/// cell.handlers.on(AddToCart.self) { cell, event, context in        // cell: ProductCell
///     context.info[Row.self] = cell.row
///     return .handledAndContinue
/// }
/// cell.handlers.on(.addToCart, payload: SKU.self) { cell, sku, context in .handled }
/// controller.handlers.delegate { controller in controller.events }   // an EventProxy
/// root.handlers.onAnyEvent { root, event, context in .pass }         // sees everything
/// cell.handlers.remove(AddToCart.self)
/// ```
///
/// Each handler receives the responder, so it does not need to capture it (and cannot create a
/// retain cycle through it). Handlers run on the main actor, during the hop at this responder,
/// before its pointer and key methods (see ``InterfaceResponder/respond(to:context:)``).
@MainActor
public struct HandlerRegistrar<Owner: InterfaceResponder> {
    /// The responder the handlers are registered on.
    public let owner: Owner

    /// Registration for `owner`.
    public init(owner: Owner) {
        self.owner = owner
    }

    /// Handles events of type `type` at this responder. Replaces an earlier handler for the
    /// same type.
    ///
    /// ```swift
    /// view.handlers.on(Tapped.self) { view, tap, context in
    ///     view.alpha = 0.5
    ///     return .handled
    /// }
    /// ```
    public func on<E: Event>(
        _ type: E.Type,
        phase: EventPhase = .bubble,
        _ handler: @escaping @MainActor @Sendable (Owner, E, inout EventContext) async throws -> Disposition
    ) {
        owner.handlerTable.on(type, as: Owner.self, phase: phase, handler)
    }

    /// Handles named events called `name` whose payload is a `Payload`. Any other payload ends
    /// the send `failed` with a `ResponderChainError` (`.payloadTypeMismatch`). Replaces an earlier handler for the same
    /// name.
    ///
    /// ```swift
    /// cell.handlers.on(.addToCart, payload: String.self) { cell, sku, context in
    ///     cell.badge = sku
    ///     return .handled
    /// }
    /// ```
    public func on<Payload: Sendable>(
        _ name: EventName,
        payload: Payload.Type,
        phase: EventPhase = .bubble,
        _ handler:
            @escaping @MainActor @Sendable (Owner, Payload, inout EventContext) async throws -> Disposition
    ) {
        owner.handlerTable.on(name, payload: payload, as: Owner.self, phase: phase, handler)
    }

    /// Handles every event that no entry of this responder's table, nor its proxy, handles —
    /// pointer and key events included, before the pointer and key methods: return
    /// `Disposition.pass` for what you leave to them. Replaces an earlier catch-all.
    ///
    /// ```swift
    /// root.handlers.onAnyEvent { root, event, context in
    ///     root.log.append(event.traceName)
    ///     return .pass
    /// }
    /// ```
    public func onAnyEvent(
        phase: EventPhase = .bubble,
        _ handler:
            @escaping @MainActor @Sendable (Owner, any Event, inout EventContext) async throws -> Disposition
    ) {
        owner.handlerTable.onAnyEvent(as: Owner.self, phase: phase, handler)
    }

    /// Runs `wrapper` around the handlers registered on this responder at each of its hops, in
    /// both phases; the first registered runs outermost (see the core's `HopMiddleware` for what a
    /// wrapper may do). The pointer and key methods run after the table, outside the wrappers,
    /// when the table passes.
    ///
    /// ```swift
    /// panel.handlers.use { panel, event, context, next in
    ///     guard panel.isUnlocked else { return .handled }   // locked: swallow everything
    ///     return try await next(&context)
    /// }
    /// ```
    public func use(
        _ wrapper:
            @escaping @MainActor @Sendable (Owner, any Event, inout EventContext, HopMiddleware.Next)
            async throws
            -> Disposition
    ) {
        owner.handlerTable.use(as: Owner.self, wrapper)
    }

    /// Hands the events no entry of this responder's table handles to a separate responder's
    /// handlers, the "event proxy" beside it. `proxy` is called at every hop, on the main actor;
    /// the proxy's own `Responder.handle(_:context:)` decides (its `next` is never used), and
    /// when it passes the catch-all runs. Replaces an earlier proxy (for a controller, the one
    /// ``ViewController/eventProxy`` set).
    ///
    /// ```swift
    /// controller.handlers.delegate { controller in controller.checkoutEvents }
    /// ```
    public func delegate(to proxy: @escaping @MainActor @Sendable (Owner) -> (any Responder)?) {
        owner.handlerTable.delegate(as: Owner.self, to: proxy)
    }

    /// Removes the handler for events of type `type`, if any.
    public func remove<E: Event>(_ type: E.Type, phase: EventPhase = .bubble) {
        owner.handlerTable.remove(type, phase: phase)
    }

    /// Removes the handler for named events called `name`, if any.
    public func remove(_ name: EventName, phase: EventPhase = .bubble) {
        owner.handlerTable.remove(name, phase: phase)
    }

    /// Removes the catch-all set with ``onAnyEvent(phase:_:)``, if any.
    public func removeAnyEventHandler(phase: EventPhase = .bubble) {
        owner.handlerTable.removeAnyEventHandler(phase: phase)
    }

    /// Removes the proxy set with ``delegate(to:)`` (or ``ViewController/eventProxy``), if any.
    public func removeDelegate() {
        owner.handlerTable.removeDelegate()
    }

    /// Removes every wrapper registered with ``wrap(_:)``.
    public func removeMiddleware() {
        owner.handlerTable.removeMiddleware()
    }
}

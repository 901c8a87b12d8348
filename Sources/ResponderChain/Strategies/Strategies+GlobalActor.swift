/// Registration for ``GlobalActorResponder``s: the same forms as for actors and main-actor
/// responders, with handlers isolated to the type's global actor.
///
/// Swift cannot name "the global actor of `Owner`" in a closure type, so each handler says it
/// itself, in its closure: `{ @DatabaseActor store, event, context in … }`. A closure that forgets
/// it is not isolated, and touching the store's state from it does not compile. Every handler is
/// asynchronous: it enters its actor when it runs, which costs nothing during the responder's own
/// hop, already on that actor.
///
/// ```swift
/// @DatabaseActor
/// final class Store: GlobalActorResponder {
///     nonisolated static var globalActor: any Actor { DatabaseActor.shared }
///     var next: (any Responder)? { nil }
///     private(set) var saved: [String] = []
///
///     nonisolated static let strategies = Strategies<Store> {
///         $0.on(Save.self) { @DatabaseActor store, save, context in
///             store.saved.append(save.key)
///             return .handled
///         }
///     }
/// }
/// ```
extension Strategies where Owner: GlobalActorResponder {
    /// Handles events of type `type` in `phase` with a handler isolated to the owner's global
    /// actor.
    public mutating func on<E: Event>(
        _ type: E.Type,
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @Sendable (Owner, E, inout EventContext) async throws -> Disposition
    ) {
        register(
            in: phase, .type(ObjectIdentifier(type)),
            .asynchronous { owner, event, context in
                guard let typed = Self.typed(event, as: E.self) else { return .pass }
                return try await handler(Self.owner(owner), typed, &context)
            })
    }

    /// Handles named events called `name` whose payload is a `Payload`. Any other payload ends
    /// the send ``Outcome/failed(_:)`` with a ``ResponderChainError``
    /// (``ResponderChainError/Code/payloadTypeMismatch``).
    public mutating func on<Payload: Sendable>(
        _ name: NamedEvent.Name,
        payload: Payload.Type,
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @Sendable (Owner, Payload, inout EventContext) async throws -> Disposition
    ) {
        register(
            in: phase, .name(name),
            .asynchronous { owner, event, context in
                try await handler(
                    Self.owner(owner), try Self.payload(of: event, named: name, as: Payload.self), &context)
            })
    }

    /// Handles every event no other entry of this table (nor the proxy) handles.
    public mutating func onAnyEvent(
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @Sendable (Owner, any Event, inout EventContext) async throws -> Disposition
    ) {
        setFallback(in: phase, .asynchronous { try await handler(Self.owner($0), $1, &$2) })
    }

    /// Runs `middleware` around this responder's handlers at each of its hops, in both phases
    /// (see the actor form, and ``HopMiddleware``).
    public mutating func use(
        _ middleware:
            @escaping @Sendable (Owner, any Event, inout EventContext, HopMiddleware.Next) async throws
            -> Disposition
    ) {
        use(
            ClosureMiddleware { owner, event, context, next in
                try await middleware(Self.owner(owner), event, &context, next)
            })
    }

    /// Hands events this table has no entry for to a separate object's handlers.
    public mutating func proxy(_ proxy: @escaping @Sendable (Owner) async -> (any Responder)?) {
        setProxy { await proxy(Self.owner($0)) }
    }
}

extension GlobalActorResponder where StrategyOwner == Self {
    /// Runs the instance's ``Responder/strategies-swift.property`` table. Implement
    /// ``Responder/handle(_:context:)`` yourself to decide some other way.
    public nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        try await runOwnStrategies(event, context: &context)
    }
}

/// Registration for responders that are actors: each handler gets the actor `isolated`, so it
/// reads and changes the actor's state without `await`.
///
/// Each form has two overloads. A closure with no `await` in it picks the synchronous one, which
/// the hop calls as a plain function call; a closure that awaits picks the asynchronous one.
///
/// A synchronous handler is stored as a plain function of its owner (`unsafeBitCast` from the
/// `isolated Owner` form, as `Actor.assumeIsolated` does with its body: an `isolated` parameter
/// is an ordinary parameter at run time, so both function types have one representation). That
/// is sound because ``HandlerTable`` calls synchronous entries only on the owner's executor: the
/// handler still runs isolated to its owner, as its type says.
extension Strategies where Owner: Actor {
    /// Handles events of type `type`.
    ///
    /// ```swift
    /// $0.on(ItemAdded.self) { order, event, context in
    ///     order.items.append(event.sku)
    ///     return .handled
    /// }
    /// ```
    @inlinable
    public mutating func on<E: Event>(
        _ type: E.Type,
        _ handler: @escaping @Sendable (isolated Owner, E, inout EventContext) throws -> Disposition
    ) {
        let plain = unsafeBitCast(
            handler, to: (@Sendable (Owner, E, inout EventContext) throws -> Disposition).self)
        register(
            .type(ObjectIdentifier(type)),
            .synchronous { owner, event, context in
                guard let typed = Self.typed(event, as: E.self) else { return .pass }
                return try plain(Self.owner(owner), typed, &context)
            })
    }

    /// Handles events of type `type` with a handler that awaits.
    ///
    /// ```swift
    /// $0.on(Checkout.self) { order, event, context in
    ///     try await order.charge(event.card)
    ///     return .handled
    /// }
    /// ```
    @inlinable
    public mutating func on<E: Event>(
        _ type: E.Type,
        _ handler:
            @escaping @Sendable (isolated Owner, E, inout EventContext) async throws
            -> Disposition
    ) {
        register(
            .type(ObjectIdentifier(type)),
            .asynchronous { owner, event, context in
                guard let typed = Self.typed(event, as: E.self) else { return .pass }
                return try await handler(Self.owner(owner), typed, &context)
            })
    }

    /// Handles named events called `name` whose payload is a `Payload`. Any other payload ends
    /// the send ``Outcome/failed(_:)`` with a ``PayloadTypeMismatch``.
    @inlinable
    public mutating func on<Payload: Sendable>(
        _ name: EventName,
        payload: Payload.Type,
        _ handler: @escaping @Sendable (isolated Owner, Payload, inout EventContext) throws -> Disposition
    ) {
        let plain = unsafeBitCast(
            handler, to: (@Sendable (Owner, Payload, inout EventContext) throws -> Disposition).self)
        register(
            .name(name),
            .synchronous { owner, event, context in
                try plain(
                    Self.owner(owner), try Self.payload(of: event, named: name, as: Payload.self), &context)
            })
    }

    /// Handles named events called `name` whose payload is a `Payload`, with a handler that
    /// awaits. Any other payload ends the send ``Outcome/failed(_:)`` with a
    /// ``PayloadTypeMismatch``.
    @inlinable
    public mutating func on<Payload: Sendable>(
        _ name: EventName,
        payload: Payload.Type,
        _ handler:
            @escaping @Sendable (isolated Owner, Payload, inout EventContext) async throws
            -> Disposition
    ) {
        register(
            .name(name),
            .asynchronous { owner, event, context in
                try await handler(
                    Self.owner(owner), try Self.payload(of: event, named: name, as: Payload.self), &context)
            })
    }

    /// Handles every event no other entry of this table (nor the proxy) handles: the catch-all
    /// sink at the end of a chain, like an app delegate that sees every event.
    @inlinable
    public mutating func onAnyEvent(
        _ handler: @escaping @Sendable (isolated Owner, any Event, inout EventContext) throws -> Disposition
    ) {
        let plain = unsafeBitCast(
            handler, to: (@Sendable (Owner, any Event, inout EventContext) throws -> Disposition).self)
        setFallback(.synchronous { try plain(Self.owner($0), $1, &$2) })
    }

    /// Handles every event no other entry of this table (nor the proxy) handles, with a handler
    /// that awaits.
    @inlinable
    public mutating func onAnyEvent(
        _ handler:
            @escaping @Sendable (isolated Owner, any Event, inout EventContext) async throws
            -> Disposition
    ) {
        setFallback(.asynchronous { try await handler(Self.owner($0), $1, &$2) })
    }

    /// Hands events this table has no entry for to a separate object's handlers (the
    /// "EventProxy" beside a controller). The proxy is read at every visit; its own
    /// ``Responder/handle(_:context:)`` decides, and its `next` is never used.
    ///
    /// ```swift
    /// static let strategies = Strategies<OrderController> { $0.delegate { $0.eventProxy } }
    /// ```
    public mutating func delegate(
        to proxy: @escaping @Sendable (isolated Owner) -> (any Responder)?
    ) {
        setProxy { await proxy(Self.owner($0)) }
    }
}

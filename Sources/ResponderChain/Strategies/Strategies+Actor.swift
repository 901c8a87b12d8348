/// Registration for responders that are actors: each handler gets the actor `isolated`, so it
/// reads and changes the actor's state without `await`.
///
/// Each form has two overloads. A closure with no `await` in it picks the synchronous one, which
/// the hop calls as a plain function call; a closure that awaits picks the asynchronous one.
extension Strategies where Owner: Actor {
    /// Handles events of type `type` in `phase` (bubbling, unless you pass
    /// ``EventContext/Phase/capture``).
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
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @Sendable (isolated Owner, E, inout EventContext) throws -> Disposition
    ) {
        register(
            in: phase, .type(ObjectIdentifier(type)),
            Self.synchronous(handler, extracting: { Self.typed($0, as: E.self) }))
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
        phase: EventContext.Phase = .bubble,
        _ handler:
            @escaping @Sendable (isolated Owner, E, inout EventContext) async throws
            -> Disposition
    ) {
        register(
            in: phase, .type(ObjectIdentifier(type)),
            .asynchronous { owner, event, context in
                guard let typed = Self.typed(event, as: E.self) else { return .pass }
                return try await handler(Self.owner(owner), typed, &context)
            })
    }

    /// Handles named events called `name` whose payload is a `Payload`. Any other payload ends
    /// the send ``Outcome/failed(_:)`` with a ``ResponderChainError`` (``ResponderChainError/Code/payloadTypeMismatch``).
    @inlinable
    public mutating func on<Payload: Sendable>(
        _ name: NamedEvent.Name,
        payload: Payload.Type,
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @Sendable (isolated Owner, Payload, inout EventContext) throws -> Disposition
    ) {
        register(
            in: phase, .name(name),
            Self.synchronous(handler, extracting: { try Self.payload(of: $0, named: name, as: Payload.self) })
        )
    }

    /// Handles named events called `name` whose payload is a `Payload`, with a handler that
    /// awaits. Any other payload ends the send ``Outcome/failed(_:)`` with a
    /// ``ResponderChainError`` (``ResponderChainError/Code/payloadTypeMismatch``).
    @inlinable
    public mutating func on<Payload: Sendable>(
        _ name: NamedEvent.Name,
        payload: Payload.Type,
        phase: EventContext.Phase = .bubble,
        _ handler:
            @escaping @Sendable (isolated Owner, Payload, inout EventContext) async throws
            -> Disposition
    ) {
        register(
            in: phase, .name(name),
            .asynchronous { owner, event, context in
                try await handler(
                    Self.owner(owner), try Self.payload(of: event, named: name, as: Payload.self), &context)
            })
    }

    /// Handles every event no other entry of this table (nor the proxy) handles: the catch-all
    /// sink at the end of a chain, like an app delegate that sees every event.
    @inlinable
    public mutating func onAnyEvent(
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @Sendable (isolated Owner, any Event, inout EventContext) throws -> Disposition
    ) {
        setFallback(in: phase, Self.synchronous(handler, extracting: { $0 }))
    }

    /// Handles every event no other entry of this table (nor the proxy) handles, with a handler
    /// that awaits.
    @inlinable
    public mutating func onAnyEvent(
        phase: EventContext.Phase = .bubble,
        _ handler:
            @escaping @Sendable (isolated Owner, any Event, inout EventContext) async throws
            -> Disposition
    ) {
        setFallback(in: phase, .asynchronous { try await handler(Self.owner($0), $1, &$2) })
    }

    /// Runs `middleware` around this responder's handlers at each of its hops, in both phases
    /// (``EventContext/phase`` says which). `next` runs the middleware registered after this
    /// one, then the handlers; the middleware returns the hop's disposition, may return another
    /// one, may skip `next`, and may catch what it throws (see ``HopMiddleware``). Middleware
    /// runs in the order it was registered, the first outermost, inside the system's.
    ///
    /// ```swift
    /// $0.use { account, event, context, next in
    ///     guard account.isOpen else { return .handled }   // closed: swallow, run nothing
    ///     return try await next(&context)
    /// }
    /// ```
    public mutating func use(
        _ middleware:
            @escaping @Sendable (isolated Owner, any Event, inout EventContext, HopMiddleware.Next)
            async throws
            -> Disposition
    ) {
        use(
            ClosureMiddleware { owner, event, context, next in
                try await middleware(Self.owner(owner), event, &context, next)
            })
    }

    /// Hands events this table has no entry for to a separate object's handlers (the
    /// "EventProxy" beside a controller). The proxy is read at every visit; its own
    /// ``Responder/handle(_:context:)`` decides, and its `next` is never used.
    ///
    /// ```swift
    /// static let strategies = Strategies<OrderController> { $0.proxy { $0.eventProxy } }
    /// ```
    public mutating func proxy(
        _ proxy: @escaping @Sendable (isolated Owner) -> (any Responder)?
    ) {
        setProxy { await proxy(Self.owner($0)) }
    }

    /// The entry of a synchronous handler whose value (`extract`) is taken out of the event.
    ///
    /// The handler is stored as a plain function of its owner: `unsafeBitCast` from the
    /// `isolated Owner` form, as `Actor.assumeIsolated` does with its body (an `isolated`
    /// parameter is an ordinary parameter at run time, so both function types have one
    /// representation). That is sound because ``HandlerTable`` calls it only when its caller is on
    /// the owner actor; anyone else gets the entering form, which switches to the actor first.
    /// What it buys: about 420 instructions per hop ("Design notes measured" in Benchmarks.md).
    @inlinable
    @inline(__always)
    static func synchronous<Value>(
        _ handler: @escaping @Sendable (isolated Owner, Value, inout EventContext) throws -> Disposition,
        extracting extract: @escaping @Sendable (any Event) throws -> Value?
    ) -> HandlerTable.Entry {
        let plain = unsafeBitCast(
            handler, to: (@Sendable (Owner, Value, inout EventContext) throws -> Disposition).self)
        let entering: @Sendable (isolated Owner, Value, inout EventContext) async throws -> Disposition = {
            try handler($0, $1, &$2)
        }
        return .synchronous(
            { owner, event, context in
                guard let value = try extract(event) else { return .pass }
                return try plain(Self.owner(owner), value, &context)
            },
            entering: { owner, event, context in
                guard let value = try extract(event) else { return .pass }
                return try await entering(Self.owner(owner), value, &context)
            })
    }
}

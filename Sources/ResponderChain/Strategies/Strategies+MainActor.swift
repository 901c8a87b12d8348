/// Registration for ``MainActorResponder``s: each handler runs on the main actor.
///
/// Each form has two overloads. A closure with no `await` in it picks the synchronous one, which
/// the hop calls as a plain function call; a closure that awaits picks the asynchronous one.
extension Strategies where Owner: MainActorResponder {
    /// Handles events of type `type` on the main actor.
    @inlinable
    public mutating func on<E: Event>(
        _ type: E.Type,
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @MainActor @Sendable (Owner, E, inout EventContext) throws -> Disposition
    ) {
        register(
            in: phase, .type(ObjectIdentifier(type)),
            Self.synchronous(handler, extracting: { Self.typed($0, as: E.self) }))
    }

    /// Handles events of type `type` on the main actor, with a handler that awaits.
    @inlinable
    public mutating func on<E: Event>(
        _ type: E.Type,
        phase: EventContext.Phase = .bubble,
        _ handler:
            @escaping @MainActor @Sendable (Owner, E, inout EventContext) async throws
            -> Disposition
    ) {
        register(
            in: phase, .type(ObjectIdentifier(type)),
            .asynchronous { owner, event, context in
                guard let typed = Self.typed(event, as: E.self) else { return .pass }
                return try await handler(Self.owner(owner), typed, &context)
            })
    }

    /// Handles named events called `name` whose payload is a `Payload`, on the main actor.
    @inlinable
    public mutating func on<Payload: Sendable>(
        _ name: NamedEvent.Name,
        payload: Payload.Type,
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @MainActor @Sendable (Owner, Payload, inout EventContext) throws -> Disposition
    ) {
        register(
            in: phase, .name(name),
            Self.synchronous(handler, extracting: { try Self.payload(of: $0, named: name, as: Payload.self) })
        )
    }

    /// Handles named events called `name` whose payload is a `Payload`, on the main actor, with a
    /// handler that awaits.
    @inlinable
    public mutating func on<Payload: Sendable>(
        _ name: NamedEvent.Name,
        payload: Payload.Type,
        phase: EventContext.Phase = .bubble,
        _ handler:
            @escaping @MainActor @Sendable (Owner, Payload, inout EventContext) async throws
            -> Disposition
    ) {
        register(
            in: phase, .name(name),
            .asynchronous { owner, event, context in
                try await handler(
                    Self.owner(owner), try Self.payload(of: event, named: name, as: Payload.self), &context)
            })
    }

    /// Handles every event no other entry of this table (nor the proxy) handles.
    @inlinable
    public mutating func onAnyEvent(
        phase: EventContext.Phase = .bubble,
        _ handler: @escaping @MainActor @Sendable (Owner, any Event, inout EventContext) throws -> Disposition
    ) {
        setFallback(in: phase, Self.synchronous(handler, extracting: { $0 }))
    }

    /// Handles every event no other entry of this table (nor the proxy) handles, with a handler
    /// that awaits.
    @inlinable
    public mutating func onAnyEvent(
        phase: EventContext.Phase = .bubble,
        _ handler:
            @escaping @MainActor @Sendable (Owner, any Event, inout EventContext)
            async throws -> Disposition
    ) {
        setFallback(in: phase, .asynchronous { try await handler(Self.owner($0), $1, &$2) })
    }

    /// Runs `wrapper` around this responder's handlers at each of its hops, in both phases, on
    /// the main actor (see the actor form, and ``HopMiddleware``).
    public mutating func use(
        _ middleware:
            @escaping @MainActor @Sendable (Owner, any Event, inout EventContext, HopMiddleware.Next)
            async throws
            -> Disposition
    ) {
        use(
            ClosureMiddleware { owner, event, context, next in
                try await middleware(Self.owner(owner), event, &context, next)
            })
    }

    /// Hands events this table has no entry for to a separate object's handlers.
    public mutating func proxy(
        _ proxy: @escaping @MainActor @Sendable (Owner) -> (any Responder)?
    ) {
        setProxy { await proxy(Self.owner($0)) }
    }

    /// The entry of a synchronous main-actor handler whose value (`extract`) is taken out of the
    /// event.
    ///
    /// The handler is stored as a plain function: `unsafeBitCast` from the `@MainActor` form, as
    /// `MainActor.assumeIsolated` does with its body (a synchronous function's global actor is
    /// part of its type only, not of its representation). That is sound because
    /// ``HandlerTable`` calls it only when its caller is on the main actor; anyone else gets the
    /// entering form, which switches to the main actor first. What it buys: about 550
    /// instructions per hop ("Design notes measured" in Benchmarks.md).
    @inlinable
    @inline(__always)
    static func synchronous<Value>(
        _ handler: @escaping @MainActor @Sendable (Owner, Value, inout EventContext) throws -> Disposition,
        extracting extract: @escaping @Sendable (any Event) throws -> Value?
    ) -> HandlerTable.Entry {
        let plain = unsafeBitCast(
            handler, to: (@Sendable (Owner, Value, inout EventContext) throws -> Disposition).self)
        let entering: @MainActor @Sendable (Owner, Value, inout EventContext) async throws -> Disposition = {
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

/// Registration for ``MainActorResponder``s: each handler runs on the main actor.
extension Strategies where Owner: MainActorResponder {
    /// Handles events of type `type` on the main actor.
    public mutating func on<E: Event>(
        _ type: E.Type,
        _ handler:
            @escaping @MainActor @Sendable (Owner, E, inout EventContext) async throws
            -> Disposition
    ) {
        // The table finds this entry by `E`'s identity, so the cast always succeeds.
        register(.type(ObjectIdentifier(type))) { owner, event, context in
            guard let typed = event as? E else { return .pass }
            return try await handler(Self.owner(owner), typed, &context)
        }
    }

    /// Handles named events called `name` whose payload is a `Payload`, on the main actor.
    public mutating func on<Payload: Sendable>(
        _ name: EventName,
        payload: Payload.Type,
        _ handler:
            @escaping @MainActor @Sendable (Owner, Payload, inout EventContext) async throws
            -> Disposition
    ) {
        register(.name(name)) { owner, event, context in
            try await handler(
                Self.owner(owner), try Self.payload(of: event, named: name, as: Payload.self), &context)
        }
    }

    /// Handles every event no other entry of this table (nor the proxy) handles.
    public mutating func onAnyEvent(
        _ handler:
            @escaping @MainActor @Sendable (Owner, any Event, inout EventContext)
            async throws -> Disposition
    ) {
        setFallback { try await handler(Self.owner($0), $1, &$2) }
    }

    /// Hands events this table has no entry for to a separate object's handlers.
    public mutating func delegate(
        to proxy: @escaping @MainActor @Sendable (Owner) -> (any Responder)?
    ) {
        setProxy { await proxy(Self.owner($0)) }
    }
}

/// Registration for responders that are actors: each handler gets the actor `isolated`, so it
/// reads and changes the actor's state without `await`.
extension Strategies where Owner: Actor {
    /// Handles events of type `type`.
    ///
    /// ```swift
    /// $0.on(ItemAdded.self) { order, event, context in
    ///     order.items.append(event.sku)
    ///     return .handled
    /// }
    /// ```
    public mutating func on<E: Event>(
        _ type: E.Type,
        _ handler:
            @escaping @Sendable (isolated Owner, E, inout EventContext) async throws
            -> Disposition
    ) {
        // The table finds this entry by `E`'s identity, so the cast always succeeds.
        register(.type(ObjectIdentifier(type))) { owner, event, context in
            guard let typed = event as? E else { return .pass }
            return try await handler(Self.owner(owner), typed, &context)
        }
    }

    /// Handles named events called `name` whose payload is a `Payload`. Any other payload ends
    /// the send ``Outcome/failed(_:)`` with a ``PayloadTypeMismatch``.
    public mutating func on<Payload: Sendable>(
        _ name: EventName,
        payload: Payload.Type,
        _ handler:
            @escaping @Sendable (isolated Owner, Payload, inout EventContext) async throws
            -> Disposition
    ) {
        register(.name(name)) { owner, event, context in
            try await handler(
                Self.owner(owner), try Self.payload(of: event, named: name, as: Payload.self), &context)
        }
    }

    /// Handles every event no other entry of this table (nor the proxy) handles: the catch-all
    /// sink at the end of a chain, like an app delegate that sees every event.
    public mutating func onAnyEvent(
        _ handler:
            @escaping @Sendable (isolated Owner, any Event, inout EventContext) async throws
            -> Disposition
    ) {
        setFallback { try await handler(Self.owner($0), $1, &$2) }
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

/// A responder's handler table: from event type (or event name) to an async handler.
///
/// The type-safe successor of an event-name → `NSInvocation` dictionary. Build it once per
/// responder type, as a `static let`; each hop looks the event up in it (a few nanoseconds for a
/// small table) and runs at most one handler:
///
/// 1. the handler registered for the event's type (or, for a ``NamedEvent``, its name);
/// 2. otherwise the handlers of the proxy object, if one is set with ``delegate(to:)-(…)``;
/// 3. otherwise the catch-all handler, if one is set with ``onAnyEvent(_:)-(…)``;
/// 4. otherwise nothing: the event passes.
///
/// ```swift
/// static let strategies = Strategies<Order> {
///     $0.on(ItemAdded.self) { order, event, context in
///         order.items.append(event.sku)
///         return .handledAndContinue
///     }
///     $0.on(.cancelOrder, payload: Reason.self) { order, reason, context in
///         await order.cancel(because: reason)
///         return .handled
///     }
/// }
/// ```
///
/// Handlers run on the responder's isolation: an actor's handler gets the actor `isolated`, a
/// ``MainActorResponder``'s handler runs on the main actor. Registering a second handler for the
/// same type or name replaces the first.
public struct Strategies<Owner: Responder>: Sendable {
    /// A handler after type erasure: it runs where its caller runs (the owner's isolation) and
    /// hops into the typed handler, which is isolated to the same owner, without a switch.
    typealias Handler =
        nonisolated(nonsending) @Sendable (Owner, any Event, inout EventContext) async throws ->
        Disposition
    typealias TypedHandler<Value> =
        nonisolated(nonsending) @Sendable (Owner, Value, inout EventContext) async throws ->
        Disposition
    typealias ProxyProvider = nonisolated(nonsending) @Sendable (Owner) async -> (any Responder)?

    private var keys: [EventKey] = []
    private var handlers: [Handler] = []
    /// Built once the table outgrows a linear scan.
    private var index: [EventKey: Int]?
    private var proxy: ProxyProvider?
    private var fallback: Handler?

    private static var linearScanLimit: Int { 8 }

    /// An empty table: every event passes.
    public init() {}

    /// Builds a table.
    ///
    /// ```swift
    /// static let strategies = Strategies<Order> { $0.on(ItemAdded.self) { … } }
    /// ```
    public init(_ build: (inout Strategies) -> Void) {
        build(&self)
    }

    /// The number of handlers registered by type or name.
    public var count: Int { keys.count }

    /// Whether a handler is registered for events of type `type`.
    public func handles<E: Event>(_ type: E.Type) -> Bool {
        slot(for: .type(ObjectIdentifier(type))) != nil
    }

    /// Whether a handler is registered for named events called `name`.
    public func handles(_ name: EventName) -> Bool {
        slot(for: .name(name)) != nil
    }

    mutating func register(_ key: EventKey, _ handler: @escaping Handler) {
        if let existing = slot(for: key) {
            handlers[existing] = handler
            return
        }
        keys.append(key)
        handlers.append(handler)
        if keys.count > Self.linearScanLimit {
            index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        }
    }

    mutating func setProxy(_ provider: @escaping ProxyProvider) {
        proxy = provider
    }

    mutating func setFallback(_ handler: @escaping Handler) {
        fallback = handler
    }

    private func slot(for key: EventKey) -> Int? {
        if let index { return index[key] }
        for position in keys.indices where keys[position] == key {
            return position
        }
        return nil
    }

    /// Runs the handler this table has for `event` on `owner`, which must be isolated by the
    /// caller; returns ``Disposition/pass`` when there is none.
    nonisolated(nonsending) func run(on owner: Owner, event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        if let position = slot(for: context.key) {
            return try await handlers[position](owner, event, &context)
        }
        if let proxy, let delegate = await proxy(owner) {
            let disposition = try await delegate.handle(event, context: &context)
            if disposition.isHandled { return disposition }
        }
        if let fallback {
            return try await fallback(owner, event, &context)
        }
        return .pass
    }
}

/// Type erasure shared by the actor and main-actor registration methods.
extension Strategies {
    static func typed<E: Event>(
        _ handler: @escaping TypedHandler<E>
    ) -> Handler {
        { owner, event, context in
            // The table found this handler by `E`'s identity, so the cast cannot fail.
            guard let typed = event as? E else { return .pass }
            return try await handler(owner, typed, &context)
        }
    }

    static func named<Payload: Sendable>(
        _ name: EventName,
        _ handler: @escaping TypedHandler<Payload>
    ) -> Handler {
        { owner, event, context in
            let payload = (event as? NamedEvent)?.payload
            guard let typed = payload as? Payload else {
                throw PayloadTypeMismatch(
                    name: name,
                    expected: String(describing: Payload.self),
                    actual: payload.map { String(describing: type(of: $0)) } ?? "nil"
                )
            }
            return try await handler(owner, typed, &context)
        }
    }
}

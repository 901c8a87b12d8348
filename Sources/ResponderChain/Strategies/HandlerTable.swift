/// The storage of a ``Strategies`` table, with its owner type erased: keys in registration order,
/// their handlers, an optional proxy and an optional catch-all.
///
/// Small tables (the common case) are searched linearly, which beats hashing for a handful of
/// keys; a table with more than eight keys also keeps a dictionary from key to slot.
@usableFromInline
struct HandlerTable: Sendable {
    /// A handler with its owner erased to `AnyObject`. It runs where its caller runs (the owner's
    /// isolation, during a hop) and calls the typed handler, isolated to the same owner.
    @usableFromInline
    typealias Handler =
        nonisolated(nonsending) @Sendable (AnyObject, any Event, inout EventContext) async throws ->
        Disposition
    /// Gives the proxy object of an owner.
    @usableFromInline
    typealias ProxyProvider = nonisolated(nonsending) @Sendable (AnyObject) async -> (any Responder)?

    @usableFromInline private(set) var keys: [EventKey] = []
    @usableFromInline private(set) var handlers: [Handler] = []
    /// Built once the table outgrows a linear scan.
    @usableFromInline private(set) var index: [EventKey: Int]?
    @usableFromInline var proxy: ProxyProvider?
    @usableFromInline var fallback: Handler?

    private static var linearScanLimit: Int { 8 }

    var count: Int { keys.count }

    /// No entry, no proxy, no catch-all: running the table would only pass.
    @inlinable
    var isEmpty: Bool { keys.isEmpty && proxy == nil && fallback == nil }

    func contains(_ key: EventKey) -> Bool {
        slot(for: key) != nil
    }

    /// Adds `handler` for `key`, replacing an earlier one.
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

    /// Removes the handler for `key`, if any; the other entries keep their order.
    mutating func remove(_ key: EventKey) {
        guard let existing = slot(for: key) else { return }
        keys.remove(at: existing)
        handlers.remove(at: existing)
        index =
            keys.count > Self.linearScanLimit
            ? Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) }) : nil
    }

    @inlinable
    func slot(for key: EventKey) -> Int? {
        if let index { return index[key] }
        for position in keys.indices where keys[position] == key {
            return position
        }
        return nil
    }

    /// Runs, on `owner`, the handler for the context's event key; then the proxy's handlers;
    /// then the catch-all; else passes.
    @inlinable
    nonisolated(nonsending) func run(on owner: AnyObject, event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        if let position = slot(for: context.key) {
            return try await handlers[position](owner, event, &context)
        }
        if let proxy {
            let disposition = try await runProxy(proxy, of: owner, event: event, context: &context)
            if disposition.isHandled { return disposition }
        }
        if let fallback {
            return try await fallback(owner, event, &context)
        }
        return .pass
    }

    /// Runs the handlers of `owner`'s proxy, if it has one now; passes otherwise.
    ///
    /// The context remembers the owners whose proxies are being run at this hop, so that a proxy
    /// leading back to one of them (or to itself) ends the send ``Outcome/failed(_:)`` with a
    /// ``ProxyCycle`` instead of recursing forever.
    @usableFromInline
    nonisolated(nonsending) func runProxy(
        _ proxy: ProxyProvider, of owner: AnyObject, event: any Event, context: inout EventContext
    ) async throws -> Disposition {
        guard let delegate = await proxy(owner) else { return .pass }
        let delegateID = ObjectIdentifier(delegate)
        if delegateID == ObjectIdentifier(owner) || context.ownersRunningProxies.contains(delegateID) {
            throw ProxyCycle(proxy: ResponderID(delegate))
        }
        context.ownersRunningProxies.append(ObjectIdentifier(owner))
        defer { context.ownersRunningProxies.removeLast() }
        return try await delegate.handle(event, context: &context)
    }
}

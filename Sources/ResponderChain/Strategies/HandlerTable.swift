/// The storage of a ``Strategies`` table, with its owner type erased: keys in registration order,
/// their handlers, an optional proxy and an optional catch-all.
///
/// A table of up to eight keys is searched linearly; a larger one also keeps a dictionary from
/// key to slot.
///
/// **Isolation.** A synchronous entry is a plain function of its owner that must run on the owner's
/// isolation (the owner actor, or the main actor for a ``MainActorResponder``'s table).
/// ``run(on:from:event:context:)`` is told the caller's isolation: when it is the owner's (as in
/// every hop, which runs on the responder's isolation) the entry is a plain call; otherwise (a
/// proxy's handlers, asked from another responder's hop) it calls the entry's entering form,
/// which switches to the owner's isolation first.
@usableFromInline
struct HandlerTable: Sendable {
    /// A handler that does not suspend, with its owner erased to `AnyObject`. It calls the typed
    /// handler, which is isolated to the owner, as a plain call: call it on the owner's isolation.
    @usableFromInline
    typealias SynchronousHandler = @Sendable (AnyObject, any Event, inout EventContext) throws -> Disposition
    /// A handler that may suspend, with its owner erased to `AnyObject`. It runs where its caller
    /// runs and calls the typed handler, isolated to the same owner.
    @usableFromInline
    typealias Handler =
        nonisolated(nonsending) @Sendable (AnyObject, any Event, inout EventContext) async throws ->
        Disposition
    /// Gives the proxy object of an owner.
    @usableFromInline
    typealias ProxyProvider = nonisolated(nonsending) @Sendable (AnyObject) async -> (any Responder)?

    /// One registered handler: a synchronous one (a closure without `await`, picked by overload)
    /// is a plain call on the owner's isolation; an asynchronous one runs in an async frame.
    @usableFromInline
    enum Entry: Sendable {
        /// The plain function, for callers on the owner's isolation, and the same handler behind
        /// a switch to the owner's isolation, for everyone else.
        case synchronous(SynchronousHandler, entering: Handler)
        case asynchronous(Handler)
    }

    /// Whether the owners of this table are isolated to the main actor (a
    /// ``MainActorResponder``'s table) rather than being actors themselves.
    @usableFromInline var isMainActorTable = false

    @usableFromInline private(set) var keys: [EventKey] = []
    @usableFromInline private(set) var entries: [Entry] = []
    /// Built once the table outgrows a linear scan.
    @usableFromInline private(set) var index: [EventKey: Int]?
    @usableFromInline var proxy: ProxyProvider?
    @usableFromInline var fallback: Entry?

    private static var linearScanLimit: Int { 8 }

    var count: Int { keys.count }

    /// No entry, no proxy, no catch-all: running the table would only pass.
    @inlinable
    var isEmpty: Bool { keys.isEmpty && proxy == nil && fallback == nil }

    func contains(_ key: EventKey) -> Bool {
        slot(for: key) != nil
    }

    /// Whether the entry for `key` runs without suspending (clear-box, for tests).
    func isSynchronous(_ key: EventKey) -> Bool? {
        slot(for: key).map {
            if case .synchronous = entries[$0] { return true }
            return false
        }
    }

    /// Adds `entry` for `key`, replacing an earlier one.
    mutating func register(_ key: EventKey, _ entry: Entry) {
        if let existing = slot(for: key) {
            entries[existing] = entry
            return
        }
        keys.append(key)
        entries.append(entry)
        if keys.count > Self.linearScanLimit {
            index = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        }
    }

    /// Removes the handler for `key`, if any; the other entries keep their order.
    mutating func remove(_ key: EventKey) {
        guard let existing = slot(for: key) else { return }
        keys.remove(at: existing)
        entries.remove(at: existing)
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

    /// Runs, on `owner`, the handler for `event`'s key; then the proxy's handlers; then the
    /// catch-all; else passes. `isolation` is the caller's.
    @inlinable
    nonisolated(nonsending) func run(
        on owner: AnyObject, from isolation: (any Actor)?, event: any Event, context: inout EventContext
    ) async throws -> Disposition {
        if let position = slot(for: context.key) {
            if isOwnersIsolation(isolation, of: owner),
                let disposition = try runSynchronous(at: position, on: owner, event: event, context: &context)
            {
                return disposition
            }
            return try await run(
                entries[position], on: owner, from: isolation, event: event, context: &context)
        }
        if proxy == nil && fallback == nil { return .pass }
        return try await runProxyAndFallback(on: owner, from: isolation, event: event, context: &context)
    }

    @inlinable
    nonisolated(nonsending) func run(
        _ entry: Entry, on owner: AnyObject, from isolation: (any Actor)?, event: any Event,
        context: inout EventContext
    ) async throws -> Disposition {
        switch entry {
        case .synchronous(let handler, let entering):
            if isOwnersIsolation(isolation, of: owner) { return try handler(owner, event, &context) }
            return try await entering(owner, event, &context)
        case .asynchronous(let handler):
            return try await handler(owner, event, &context)
        }
    }

    /// What ``run(on:from:event:context:)`` comes to when it needs no `await`: the entry's
    /// disposition when a synchronous entry is found and the caller is on the owner's isolation,
    /// ``Disposition/pass`` when there is no entry, proxy or catch-all; `nil` when the rest needs
    /// the asynchronous run.
    @inlinable
    @inline(__always)
    func runWithoutSuspending(
        on owner: AnyObject, from isolation: (any Actor)?, event: any Event, context: inout EventContext
    ) throws -> Disposition? {
        guard let position = slot(for: context.key) else {
            return proxy == nil && fallback == nil ? .pass : nil
        }
        guard isOwnersIsolation(isolation, of: owner) else { return nil }
        return try runSynchronous(at: position, on: owner, event: event, context: &context)
    }

    /// Runs the entry at `position` in place if it is synchronous (the caller is on the owner's
    /// isolation); `nil` for an asynchronous entry. Reading the entry in the array's storage
    /// copies only the handler it calls, not the whole entry (one retain and release per hop
    /// fewer, counted by `.ci/hop-instructions`).
    @inlinable
    @inline(__always)
    func runSynchronous(
        at position: Int, on owner: AnyObject, event: any Event, context: inout EventContext
    ) throws -> Disposition? {
        try entries.withUnsafeBufferPointer { entries in
            guard case .synchronous(let handler, _) = entries[position] else { return nil }
            return try handler(owner, event, &context)
        }
    }

    /// Whether `isolation` is where `owner`'s handlers run.
    @inlinable
    func isOwnersIsolation(_ isolation: (any Actor)?, of owner: AnyObject) -> Bool {
        guard let isolation else { return false }
        return ObjectIdentifier(isolation)
            == (isMainActorTable ? Self.mainActorIdentity : ObjectIdentifier(owner))
    }

    /// The main actor's identity, read once: `MainActor.shared` at every hop cost a static
    /// object's initialization check and a retain and release (`.ci/hop-instructions`).
    @usableFromInline
    static let mainActorIdentity = ObjectIdentifier(MainActor.shared)

    /// The rarer part of ``run(on:from:event:context:)``, out of line: the proxy's handlers,
    /// then the catch-all.
    @usableFromInline
    nonisolated(nonsending) func runProxyAndFallback(
        on owner: AnyObject, from isolation: (any Actor)?, event: any Event, context: inout EventContext
    ) async throws -> Disposition {
        if let proxy {
            let disposition = try await runProxy(proxy, of: owner, event: event, context: &context)
            if disposition.isHandled { return disposition }
        }
        if let fallback {
            return try await run(fallback, on: owner, from: isolation, event: event, context: &context)
        }
        return .pass
    }

    /// Runs the handlers of `owner`'s proxy, if it has one now; passes otherwise.
    ///
    /// The context remembers the owners whose proxies are being run at this hop, so that a proxy
    /// leading back to one of them (or to itself) ends the send ``Outcome/failed(_:)`` with a
    /// ``ResponderChainError`` (``ResponderChainError/Code/proxyCycle``) instead of recursing forever.
    nonisolated(nonsending) func runProxy(
        _ proxy: ProxyProvider, of owner: AnyObject, event: any Event, context: inout EventContext
    ) async throws -> Disposition {
        guard let delegate = await proxy(owner) else { return .pass }
        let delegateID = ObjectIdentifier(delegate)
        if delegateID == ObjectIdentifier(owner) || context.ownersRunningProxies.contains(delegateID) {
            throw ResponderChainError.proxyCycle(ResponderID(delegate))
        }
        context.ownersRunningProxies.append(ObjectIdentifier(owner))
        defer { context.ownersRunningProxies.removeLast() }
        return try await delegate.handle(event, context: &context)
    }
}

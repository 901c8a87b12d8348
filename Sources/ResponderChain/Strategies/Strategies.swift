/// A responder's handler table: from event type (or event name) to an async handler.
///
/// The type-safe successor of an event-name → `NSInvocation` dictionary. Build it once per
/// responder type, as a `static let`; each hop looks the event up in it and runs at most one
/// handler:
///
/// 1. the handler registered for the event's type (or, for a ``NamedEvent``, its name);
/// 2. otherwise the handlers of the proxy object, if one is set with `proxy(_:)`;
/// 3. otherwise the catch-all handler, if one is set with `onAnyEvent(_:)`;
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
/// same type or name (in the same phase) replaces the first; `remove(_:)` takes one out.
///
/// **Capture handlers** see events sent from below before the sender does (see ``EventContext/Phase``);
/// register them with `phase: .capture`. They form a table of their own, run the same way (a
/// type's entry, else the catch-all; no proxy), in sends of a system that runs the capture pass:
///
/// ```swift
/// static let strategies = Strategies<Screen> {
///     $0.on(KeyEvent.self, phase: .capture) { screen, key, context in
///         screen.isLocked ? .handled : .pass          // swallowed before the focused field
///     }
/// }
/// ```
///
/// **Middleware** runs around this responder's handlers at each of its hops, in both phases
/// (`use(_:)`, see ``HopMiddleware`` for what middleware may do and the order).
///
/// The window layer (`ResponderUI`) keeps one table per interface responder instead of one per
/// type, filled at run time through `view.handlers`; it runs the same way.
public struct Strategies<Owner: Responder>: Sendable {
    /// The entries, with the owner erased, so that a hop looks up no generic metadata.
    @usableFromInline
    var table = HandlerTable()
    /// The capture handlers (``EventContext/Phase/capture``), in a table of their own.
    @usableFromInline
    var captureTable = HandlerTable()
    /// The middleware around this responder's handlers, outermost first.
    @usableFromInline
    var middleware: [any HopMiddleware] = [] {
        didSet { updateIsPlain() }
    }
    /// Whether the table has no capture handlers and no middleware: a hop runs ``table`` and
    /// nothing else. Kept up to date by every change, so that a hop checks one flag.
    @usableFromInline
    private(set) var isPlain = true

    /// An empty table: every event passes.
    public init() {
        let isMainActorTable = Owner.self is any MainActorResponder.Type
        table.isMainActorTable = isMainActorTable
        captureTable.isMainActorTable = isMainActorTable
    }

    /// The same table, for owners of type `Owner`: its handlers are run on an `Owner` from now
    /// on. (Package-wide: the window layer keeps one table per instance and hands it out typed by
    /// the instance's static class, which the instance always is.)
    package init<Other>(rebinding other: Strategies<Other>) {
        table = other.table
        captureTable = other.captureTable
        middleware = other.middleware
        isPlain = other.isPlain
    }

    /// Builds a table.
    ///
    /// ```swift
    /// static let strategies = Strategies<Order> { $0.on(ItemAdded.self) { … } }
    /// ```
    public init(_ build: (inout Strategies) -> Void) {
        self.init()
        build(&self)
    }

    /// The number of handlers registered by type or name, in both phases.
    public var count: Int { table.count + captureTable.count }

    /// Whether the table has no handler by type or name, no proxy, no catch-all and no middleware,
    /// in either phase: every event passes.
    @inlinable
    public var isEmpty: Bool { isPlain && table.isEmpty }

    /// Whether the table has capture handlers: its responders take part in the capture pass
    /// (see ``Responder/capturesEvents``).
    public var capturesEvents: Bool { !captureTable.isEmpty }

    /// The number of middleware registered with `use(_:)`.
    public var middlewareCount: Int { middleware.count }

    /// Whether a handler is registered for events of type `type` in `phase`.
    public func handles<E: Event>(_ type: E.Type, phase: EventContext.Phase = .bubble) -> Bool {
        self[phase].contains(.type(ObjectIdentifier(type)))
    }

    /// Whether a handler is registered for named events called `name` in `phase`.
    public func handles(_ name: NamedEvent.Name, phase: EventContext.Phase = .bubble) -> Bool {
        self[phase].contains(.name(name))
    }

    /// Removes the handler for events of type `type` in `phase`, if there is one. The other
    /// handlers keep their order; a later event of that type goes to the proxy, the catch-all,
    /// or on.
    ///
    /// ```swift
    /// strategies.remove(ItemAdded.self)
    /// ```
    public mutating func remove<E: Event>(_ type: E.Type, phase: EventContext.Phase = .bubble) {
        self[phase].remove(.type(ObjectIdentifier(type)))
    }

    /// Removes the handler for named events called `name` in `phase`, if there is one.
    ///
    /// ```swift
    /// strategies.remove(.cancelOrder)
    /// ```
    public mutating func remove(_ name: NamedEvent.Name, phase: EventContext.Phase = .bubble) {
        self[phase].remove(.name(name))
    }

    /// Removes the proxy set with `proxy(_:)`, if any.
    public mutating func removeProxy() {
        table.proxy = nil
    }

    /// Removes the catch-all of `phase` set with `onAnyEvent(phase:_:)`, if any.
    public mutating func removeAnyEventHandler(phase: EventContext.Phase = .bubble) {
        self[phase].fallback = nil
    }

    /// Removes every middleware registered with `use(_:)`.
    public mutating func removeMiddleware() {
        middleware.removeAll()
    }

    /// The table of `phase`.
    @usableFromInline
    subscript(phase: EventContext.Phase) -> HandlerTable {
        get { phase == .bubble ? table : captureTable }
        set {
            if phase == .bubble { table = newValue } else { captureTable = newValue }
            updateIsPlain()
        }
    }

    private mutating func updateIsPlain() {
        isPlain = captureTable.isEmpty && middleware.isEmpty
    }

    @usableFromInline
    mutating func register(in phase: EventContext.Phase, _ key: EventKey, _ entry: HandlerTable.Entry) {
        self[phase].register(key, entry)
    }

    mutating func setProxy(_ provider: @escaping HandlerTable.ProxyProvider) {
        table.proxy = provider
    }

    @usableFromInline
    mutating func setFallback(in phase: EventContext.Phase, _ entry: HandlerTable.Entry) {
        self[phase].fallback = entry
    }

    /// Adds `middleware` inside the middleware registered so far: runs around this responder's
    /// handlers at each of its hops, in both phases (see ``HopMiddleware``).
    ///
    /// ```swift
    /// $0.use(Audit())
    /// ```
    public mutating func use(_ middleware: some HopMiddleware) {
        self.middleware.append(middleware)
    }

    /// The owner a handler was registered for, from the erased object the table passes. The table
    /// of `Owner` is only ever run on an `Owner` (``Responder/strategies`` is
    /// `Strategies<StrategyOwner>` and the defaults run it on `self`), so the unchecked downcast
    /// is sound.
    @inlinable
    @inline(__always)
    static func owner(_ object: AnyObject) -> Owner {
        unsafeDowncast(object, to: Owner.self)
    }

    /// `event` as the `E` its entry was registered for, or `nil` if it is not one.
    ///
    /// The table finds an entry by the identity of the event's type, so the event almost always
    /// is an `E` already: comparing the type in the existential with `E` then takes the value out
    /// without a dynamic cast. The cast remains for the rest (a class event held as its
    /// superclass, a context reused for another event).
    @inlinable
    @inline(__always)
    static func typed<E: Event>(_ event: any Event, as _: E.Type) -> E? {
        func open<Opened: Event>(_ value: Opened) -> E? {
            if Opened.self == E.self { return unsafeBitCast(value, to: E.self) }
            return value as? E
        }
        return open(event)
    }

    /// Runs the handler this table has for `event` on `owner`; returns ``Disposition/pass``
    /// when there is none. `isolation` is the caller's (`#isolation`): on the owner's isolation
    /// (the owner actor, or the main actor for a ``MainActorResponder``) the handlers that do not
    /// suspend are plain calls; elsewhere they enter the owner's isolation first.
    /// (Package-wide: the window layer runs its per-instance tables with it.)
    @inlinable
    @inline(__always)
    package nonisolated(nonsending) func run(
        on owner: Owner, from isolation: (any Actor)?, event: any Event, context: inout EventContext
    ) async throws -> Disposition {
        if isPlain {
            // No capture handlers: a responder whose `capturesEvents` says otherwise is passed
            // over in the capture pass rather than running its bubble handlers early.
            guard context.phase == .bubble else { return .pass }
            return try await table.run(on: owner, from: isolation, event: event, context: &context)
        }
        return try await runInFull(on: owner, from: isolation, event: event, context: &context)
    }

    /// What ``run(on:from:event:context:)`` comes to when it needs no `await` (a synchronous
    /// handler run on its owner's isolation, or no handler at all), or `nil` when it does.
    ///
    /// A responder's `handle` tries this first. Being synchronous, it reads the table where it is
    /// (a type's `static let`): the asynchronous run copies the whole table value (about 190
    /// bytes) into its frame first, at every hop.
    @inlinable
    @inline(__always)
    package func runWithoutSuspending(
        on owner: Owner, from isolation: (any Actor)?, event: any Event, context: inout EventContext
    ) throws -> Disposition? {
        guard isPlain else { return nil }
        guard context.phase == .bubble else { return .pass }
        return try table.runWithoutSuspending(on: owner, from: isolation, event: event, context: &context)
    }

    /// ``run(on:from:event:context:)`` for a table with capture handlers or middleware: the
    /// check that the capture pass ran, then the middleware around the phase's table.
    @usableFromInline
    nonisolated(nonsending) func runInFull(
        on owner: Owner, from isolation: (any Actor)?, event: any Event, context: inout EventContext
    ) async throws -> Disposition {
        if context.phase == .bubble, !context.runsCapturePhase, capturesEvents {
            throw ResponderChainError.capturePhaseDisabled(ResponderID(owner))
        }
        guard !middleware.isEmpty else {
            return try await runTable(on: owner, from: isolation, event: event, context: &context)
        }
        return try await EventContext.run(middleware[...], at: owner, event: event, context: &context) {
            context in
            try await runTable(on: owner, from: isolation, event: event, context: &context)
        }
    }

    /// Runs the table of the context's phase. (Read in place: the subscript would copy it.)
    @inline(__always)
    nonisolated(nonsending) func runTable(
        on owner: Owner, from isolation: (any Actor)?, event: any Event, context: inout EventContext
    ) async throws -> Disposition {
        if context.phase == .bubble {
            return try await table.run(on: owner, from: isolation, event: event, context: &context)
        }
        return try await captureTable.run(on: owner, from: isolation, event: event, context: &context)
    }

    /// Whether the handler registered for `type` runs without suspending: the overload for a
    /// closure with no `await` was picked. Clear-box, for tests; `nil` when none is registered.
    package func isSynchronous<E: Event>(_ type: E.Type) -> Bool? {
        table.isSynchronous(.type(ObjectIdentifier(type)))
    }

    /// The proxy this table hands `owner`'s unhandled events to, read now on `owner`'s isolation
    /// (as a hop reads it), or `nil` without one. (Package-wide: the window layer's action lookup
    /// follows proxies with it, without running any handler.)
    package nonisolated(nonsending) func proxy(for owner: Owner) async -> (any Responder)? {
        guard let proxy = table.proxy else { return nil }
        return await proxy(owner)
    }
}

extension Strategies {
    /// The payload of the named event `event`, as the `Payload` its handler expects.
    /// - Throws: ``ResponderChainError`` (``ResponderChainError/Code/payloadTypeMismatch``) when it carries something else.
    @usableFromInline
    static func payload<Payload>(of event: any Event, named name: NamedEvent.Name, as _: Payload.Type) throws
        -> Payload
    {
        let payload = (event as? NamedEvent)?.payload
        guard let typed = payload as? Payload else {
            throw ResponderChainError.payloadTypeMismatch(
                name: name, expected: String(describing: Payload.self),
                actual: payload.map { String(describing: type(of: $0)) } ?? "nil")
        }
        return typed
    }
}

// The table's names the one-model release replaced (Docs/Migration.md), kept only so that code
// written against them fails to compile with an error that names the replacement (with a
// fix-it). All are unavailable: nothing can call them.

extension Strategies {
    /// Renamed ``middlewareCount``.
    @available(*, unavailable, renamed: "middlewareCount")
    public var wrapperCount: Int { middlewareCount }

    /// Renamed ``removeMiddleware()``.
    @available(*, unavailable, renamed: "removeMiddleware()")
    public mutating func removeWrappers() { removeMiddleware() }

    /// Renamed ``removeProxy()``.
    @available(*, unavailable, renamed: "removeProxy()")
    public mutating func removeDelegate() { removeProxy() }
}

extension Strategies where Owner: Actor {
    /// Renamed `use(_:)`.
    @available(*, unavailable, renamed: "use(_:)")
    public mutating func wrap(
        _ middleware:
            @escaping @Sendable (isolated Owner, any Event, inout EventContext, HopMiddleware.Next)
            async throws
            -> Disposition
    ) {
        use(middleware)
    }

    /// Renamed `proxy(_:)`.
    @available(*, unavailable, renamed: "proxy(_:)")
    public mutating func delegate(to proxy: @escaping @Sendable (isolated Owner) -> (any Responder)?) {
        self.proxy(proxy)
    }
}

extension Strategies where Owner: MainActorResponder {
    /// Renamed `use(_:)`.
    @available(*, unavailable, renamed: "use(_:)")
    public mutating func wrap(
        _ middleware:
            @escaping @MainActor @Sendable (Owner, any Event, inout EventContext, HopMiddleware.Next)
            async throws
            -> Disposition
    ) {
        use(middleware)
    }

    /// Renamed `proxy(_:)`.
    @available(*, unavailable, renamed: "proxy(_:)")
    public mutating func delegate(to proxy: @escaping @MainActor @Sendable (Owner) -> (any Responder)?) {
        self.proxy(proxy)
    }
}

// The default hop for actors. A protocol-extension method is not isolated to `self` even when
// `Self: Actor`, so `_visit` is a `nonisolated(nonsending)` shim that calls a static function with
// an `isolated Self` parameter: one executor switch per hop, for the handlers and `next` together.

extension Responder where Self: Actor, StrategyOwner == Self {
    /// Runs the instance's ``Responder/strategies-swift.property`` table on the actor.
    ///
    /// During the actor's own hop a handler that does not await is a plain call: the hop already
    /// runs on the actor. Called from anywhere else (a proxy's handlers, run from another
    /// responder's hop), each handler enters the actor first.
    @inlinable
    @inline(__always)
    public nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        try await runOwnStrategies(event, context: &context)
    }

    /// Runs ``Responder/handle(_:context:)`` and reads ``Responder/next`` in one visit to the actor.
    @inlinable
    @inline(__always)
    public nonisolated(nonsending) func _visit(_ event: any Event, context: inout EventContext) async
        -> (any Responder)?
    {
        await Self.hop(at: self, event: event, context: &context)
    }

    /// The hop, on the actor: ``EventContext/hop(at:event:)`` written out here.
    ///
    /// Written out rather than calling that `nonisolated(nonsending)` function inlined: inside
    /// it the compiler does not see that its isolation is this actor, and switches onto the actor
    /// once more between the handlers and the read of `next` (3 switches onto the actor per hop
    /// instead of 2, counted with `perf stat` on `swift_task_switch`; Docs/Benchmarks.md).
    @inlinable
    @inline(__always)
    static func hop(at responder: isolated Self, event: any Event, context: inout EventContext) async
        -> (any Responder)?
    {
        guard context.isPlain, responder.handlingLock == nil else {
            guard await context.hopInFull(at: responder, event: event) else { return nil }
            return await responder.next
        }
        do {
            context.hopResult = .decided(try await responder.handle(event, context: &context))
        } catch {
            context.hopResult = .threw(error)
        }
        return await responder.next
    }
}

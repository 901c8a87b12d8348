/// A responder isolated to the main actor: views, windows, controllers, and your own
/// `@MainActor` classes.
///
/// Conform a `@MainActor` class to this protocol instead of ``Responder``; its hops run on the main
/// actor and its handlers touch main-actor state directly. Declare the table `nonisolated` (it
/// is an immutable value, built once), so that it can satisfy the protocol requirement:
///
/// ```swift
/// @MainActor
/// final class CheckoutScreen: MainActorResponder {
///     var next: (any Responder)? { window }
///
///     nonisolated static let strategies = Strategies<CheckoutScreen> {
///         $0.on(PayTapped.self) { screen, event, context in
///             screen.isPaying = true
///             return .handled
///         }
///     }
/// }
/// ```
///
/// When an event travels between main-actor responders, each hop is a plain call on the main
/// actor: there is no thread switch between them.
@MainActor
public protocol MainActorResponder: Responder {}

extension MainActorResponder where StrategyOwner == Self {
    /// Runs ``Responder/strategies`` on the main actor.
    @inlinable
    public nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        // No switch here: the handlers are `@MainActor` closures.
        try await Self.strategies.run(on: self, event: event, context: &context)
    }
}

extension MainActorResponder {
    /// Runs ``Responder/handle(_:context:)`` and reads ``Responder/next`` in one visit to the main
    /// actor.
    @inlinable
    public nonisolated(nonsending) func visit(_ event: any Event, context: inout EventContext) async
        -> Visit
    {
        await Self.visitOnMainActor(self, event: event, context: &context)
    }

    @MainActor
    @inlinable
    static func visitOnMainActor(
        _ responder: Self,
        event: any Event,
        context: inout EventContext
    ) async -> Visit {
        if context.canVisitDirectly(responder) {
            return await context.visitDirectly(responder, event: event)
        }
        return await context.visit(responder, event: event)
    }
}

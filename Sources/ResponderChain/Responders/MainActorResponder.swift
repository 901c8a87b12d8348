/// A responder isolated to the main actor: views, windows, controllers, and your own
/// `@MainActor` classes.
///
/// Conform a `@MainActor` class to this protocol instead of ``Responder``; its hops run on the main
/// actor and its handlers touch main-actor state directly.
///
/// > Important: Declare the table **`nonisolated static let strategies`**. In a `@MainActor`
/// > class a plain `static let` is isolated to the main actor and cannot be read from the hop's
/// > `nonisolated` requirement. The compiler then reports *"conformance of 'CheckoutScreen' to
/// > protocol 'Responder' crosses into main actor-isolated code"* and offers `@MainActor` on the
/// > conformance; that fix-it is the wrong one (an isolated conformance cannot be used as
/// > `any Responder`, which leads to more errors). Add `nonisolated` instead: the table is an
/// > immutable `Sendable` value, built once, so reading it from anywhere is safe. The same holds
/// > for `isRoot`, `label` and the other `nonisolated` requirements you override.
///
/// ```swift
/// @MainActor
/// final class CheckoutScreen: MainActorResponder {
///     var isPaying = false
///     var next: (any Responder)? { nil }
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
///
/// A main-actor responder's ``Responder/next`` is synchronous (a stored `var next` or a computed
/// one without `async`): the hop reads it on the main actor as a plain call. Declaring it
/// `get async` is a compile error that points at the `async`.
@MainActor
public protocol MainActorResponder: Responder, Hop._SynchronousMainActorNext {}

extension Hop {
    /// Machinery: ``Responder/next`` as main-actor code reads it, synchronously, so that a
    /// main-actor hop reads it as a plain call instead of through the `async` requirement (which
    /// costs an executor check and a frame per hop). A `@MainActor` class's `next` satisfies both.
    /// Do not name it; a ``MainActorResponder`` whose `next` is declared `get async` does not
    /// conform (declare it synchronous: it is read on the main actor already).
    @_documentation(visibility: internal)
    @MainActor
    public protocol _SynchronousMainActorNext {
        /// The next responder up the chain, read on the main actor.
        var next: (any Responder)? { get }
    }
}

/// Reads the synchronous `next` of a main-actor responder: a function of its own, so that the read
/// names the synchronous requirement (where a type conforms to both protocols, `next` names either).
@MainActor
@inlinable
@inline(__always)
func _mainActorNext(of responder: some Hop._SynchronousMainActorNext) -> (any Responder)? {
    responder.next
}

extension MainActorResponder where StrategyOwner == Self {
    /// Runs the instance's ``Responder/strategies-swift.property`` table on the main actor.
    ///
    /// During a hop a handler that does not await is a plain call: the hop already runs on the
    /// main actor. Called from anywhere else (a proxy's handlers, run from an actor's hop), each
    /// handler enters the main actor first.
    @inlinable
    @inline(__always)
    public nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        try await runOwnStrategies(event, context: &context)
    }

}

extension MainActorResponder {
    /// Runs ``Responder/handle(_:context:)`` and reads ``Responder/next`` in one visit to the main
    /// actor.
    @inlinable
    @inline(__always)
    public nonisolated(nonsending) func _visit(_ event: any Event, context: inout EventContext) async
        -> (any Responder)?
    {
        await Self.hop(at: self, event: event, context: &context)
    }

    /// The hop, on the main actor: ``EventContext/hop(at:event:)`` written out here, as for an
    /// actor (see `Responder.hop(at:event:context:)`): inside that `nonisolated(nonsending)`
    /// function the compiler does not see that it runs on the main actor, and checks for a
    /// switch around the handlers and the read of `next` (counted by `.ci/hop-instructions`).
    @MainActor
    @inlinable
    @inline(__always)
    static func hop(at responder: Self, event: any Event, context: inout EventContext) async
        -> (any Responder)?
    {
        guard context.isPlain, responder.handlingLock == nil else {
            guard await context.hopInFull(at: responder, event: event) else { return nil }
            return _mainActorNext(of: responder)
        }
        do {
            context.hopResult = .decided(try await responder.handle(event, context: &context))
        } catch {
            context.hopResult = .threw(error)
        }
        return _mainActorNext(of: responder)
    }
}

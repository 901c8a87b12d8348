/// A responder isolated to a global actor other than the main actor: a `@DatabaseActor` store,
/// a `@RenderActor` scene.
///
/// Swift cannot name "the global actor of `Self`" in a protocol, so the type says which actor its
/// hops run on. Each hop then enters that actor once, for the handlers and the read of
/// ``Responder/next`` together, like the hops of actors and ``MainActorResponder``s.
///
/// Its handlers are a ``Strategies`` table like any responder's; each closure names the actor
/// (`{ @DatabaseActor store, … in }`), since a closure type cannot be generic over it:
///
/// ```swift
/// @globalActor actor DatabaseActor { static let shared = DatabaseActor() }
///
/// @DatabaseActor
/// final class Store: GlobalActorResponder {
///     nonisolated static var globalActor: any Actor { DatabaseActor.shared }
///     nonisolated var isRoot: Bool { true }
///     var next: (any Responder)? { nil }
///     private(set) var saved: [String] = []
///
///     nonisolated static let strategies = Strategies<Store> {
///         $0.onAnyEvent { @DatabaseActor store, event, context in
///             store.saved.append(event.traceName)
///             return .handled
///         }
///     }
/// }
/// ```
///
/// Declare ``globalActor`` and the table `nonisolated`, like every `nonisolated` requirement of
/// ``Responder`` (see ``MainActorResponder`` for what the compiler says otherwise). A type that
/// implements ``Responder/handle(_:context:)`` itself decides without a table.
public protocol GlobalActorResponder: Responder {
    /// The shared instance of the global actor this type is isolated to.
    nonisolated static var globalActor: any Actor { get }
}

extension GlobalActorResponder {
    /// Runs ``Responder/handle(_:context:)`` and reads ``Responder/next`` in one visit to
    /// ``globalActor``.
    @inlinable
    public nonisolated(nonsending) func _visit(_ event: any Event, context: inout EventContext) async
        -> (any Responder)?
    {
        await Self.hop(on: Self.globalActor, at: self, event: event, context: &context)
    }

    /// The hop, on ``globalActor``.
    @inlinable
    @inline(__always)
    static func hop(
        on actor: isolated any Actor, at responder: Self, event: any Event, context: inout EventContext
    ) async -> (any Responder)? {
        await context.hop(at: responder, event: event)
    }
}

// The control for HandlesOneEventAtATimeDeclared.swift: the same responders written with the new
// name, and one with neither, which must typecheck with no error and no warning.

import ResponderChain

/// One event at a time, in the actor's body.
actor Ledger: Responder {
    nonisolated let handlingLock: HandlingLock? = HandlingLock()
    var next: (any Responder)? { nil }
}

/// One event at a time, in the extension that declares the conformance.
actor ConformingExtension {
    nonisolated let handlingLock: HandlingLock? = HandlingLock()
}

extension ConformingExtension: Responder {
    var next: (any Responder)? { nil }
}

/// One event at a time, on a main-actor class.
@MainActor
final class Screen: MainActorResponder {
    nonisolated let handlingLock: HandlingLock? = HandlingLock()
    var next: (any Responder)? { nil }
}

@globalActor actor DatabaseActor {
    static let shared = DatabaseActor()
}

/// One event at a time, on a class of another global actor.
@DatabaseActor
final class Store: GlobalActorResponder {
    nonisolated static var globalActor: any Actor { DatabaseActor.shared }
    nonisolated let handlingLock: HandlingLock? = HandlingLock()
    var next: (any Responder)? { nil }
}

/// Reentrant: declares neither.
actor Reentrant: Responder {
    var next: (any Responder)? { nil }
}

/// A property of its own that merely shares a word with the old one compiles as before.
actor Named: Responder {
    nonisolated var handlesOneEventAtATimeInTests: Bool { true }
    var next: (any Responder)? { nil }
}

/// The responders above as the library uses them.
func chain() -> [any Responder] {
    [Ledger(), ConformingExtension(), Reentrant(), Named()]
}

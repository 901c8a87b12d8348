// `handlesOneEventAtATime` was replaced by `handlingLock`. A responder that still declares the old
// property must not compile into a reentrant responder without a word: wherever and however it is
// declared, it is a compile error whose message names the replacement (Docs/Migration.md,
// "What the compiler tells you").
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// The diagnostics it must report (every `expect:` line, once per declaration; no error but those):
// expect: error: conformance of 'Bool' to 'HandlingLock._Replacement' is unavailable: 'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it
// expect: error: conformance of 'Bool' to 'HandlingLock._Replacement' is unavailable: 'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it
// expect: error: conformance of 'Bool' to 'HandlingLock._Replacement' is unavailable: 'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it
// expect: error: conformance of 'Bool' to 'HandlingLock._Replacement' is unavailable: 'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it
// expect: error: conformance of 'Bool' to 'HandlingLock._Replacement' is unavailable: 'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it
// expect: error: conformance of 'Bool' to 'HandlingLock._Replacement' is unavailable: 'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it
// expect: error: conformance of 'Bool' to 'HandlingLock._Replacement' is unavailable: 'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it
// expect: error: conformance of 'Bool' to 'HandlingLock._Replacement' is unavailable: 'handlesOneEventAtATime' has been replaced by 'handlingLock': declare 'nonisolated let handlingLock: HandlingLock? = HandlingLock()' to handle one event at a time, or remove it
// expect: note: in associated type 'Self._HandlesOneEventAtATime' (inferred as 'Bool')

import ResponderChain

/// In the actor's body, computed: the form the old docs showed.
actor Ledger: Responder {
    nonisolated var handlesOneEventAtATime: Bool { true }
    var next: (any Responder)? { nil }
}

/// In the actor's body, stored.
actor StoredFlag: Responder {
    nonisolated let handlesOneEventAtATime = true
    var next: (any Responder)? { nil }
}

/// In the extension that declares the conformance.
actor ConformingExtension {}

extension ConformingExtension: Responder {
    nonisolated var handlesOneEventAtATime: Bool { true }
    var next: (any Responder)? { nil }
}

/// In an extension of its own, apart from the conformance.
actor SeparateExtension: Responder {
    var next: (any Responder)? { nil }
}

extension SeparateExtension {
    nonisolated var handlesOneEventAtATime: Bool { true }
}

/// On a main-actor class.
@MainActor
final class Screen: MainActorResponder {
    nonisolated var handlesOneEventAtATime: Bool { true }
    var next: (any Responder)? { nil }
}

@globalActor actor DatabaseActor {
    static let shared = DatabaseActor()
}

/// On a class of another global actor.
@DatabaseActor
final class Store: GlobalActorResponder {
    nonisolated static var globalActor: any Actor { DatabaseActor.shared }
    nonisolated var handlesOneEventAtATime: Bool { true }
    var next: (any Responder)? { nil }
}

/// On a responder with no isolation of its own.
final class Counter: Responder {
    let handlesOneEventAtATime = true
    var next: (any Responder)? { nil }

    nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    { .pass }
}

/// In a protocol's extension, for every responder type that adopts it.
protocol OneAtATime: Responder {}

extension OneAtATime {
    nonisolated var handlesOneEventAtATime: Bool { true }
}

actor Account: OneAtATime {
    var next: (any Responder)? { nil }
}

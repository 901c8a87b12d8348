// The fixed forms of the responder mistakes next door, as the documentation writes them: a
// main-actor table declared `nonisolated static let`, and a responder on another global actor
// through GlobalActorResponder. Must typecheck with no error and no warning.

import ResponderChain

struct PayTapped: Event {}

@MainActor
final class CheckoutScreen: MainActorResponder {
    var isPaying = false
    var next: (any Responder)? { nil }

    nonisolated static let strategies = Strategies<CheckoutScreen> {
        $0.on(PayTapped.self) { screen, _, _ in
            screen.isPaying = true
            return .handled
        }
    }
}

@globalActor actor DatabaseActor { static let shared = DatabaseActor() }

@DatabaseActor
final class Store: GlobalActorResponder {
    nonisolated static var globalActor: any Actor { DatabaseActor.shared }
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    private(set) var saved: [String] = []

    nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        await save(event)
    }

    private func save(_ event: any Event) -> Disposition {
        saved.append(event.traceName)
        return .handled
    }
}

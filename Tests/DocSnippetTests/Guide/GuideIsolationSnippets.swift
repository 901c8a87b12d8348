// swift-format-ignore-file
// Docs/Guide.md's Swift blocks of step 9, verbatim (checked by DocSnippetTests). The global
// actor and its responder are at the top level, where a global actor is usually declared.

import ResponderChain

extension Guide {
    enum StepNine {
        // snippet: Docs/Guide.md 18
        struct PayTapped: Event {}

        @MainActor
        final class CheckoutScreen: MainActorResponder {
            let session: CustomerSession
            var isPaying = false
            init(session: CustomerSession) { self.session = session }
            var next: (any Responder)? { session }

            nonisolated static let strategies = Strategies<CheckoutScreen> {
                $0.on(PayTapped.self) { screen, event, context in
                    screen.isPaying = true
                    return .handled
                }
            }
        }
        // end snippet
    }
}

// snippet: Docs/Guide.md 19
@globalActor actor DatabaseActor { static let shared = DatabaseActor() }

@DatabaseActor
final class Store: GlobalActorResponder {
    nonisolated static var globalActor: any Actor { DatabaseActor.shared }
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    private(set) var saved: [String] = []

    nonisolated static let strategies = Strategies<Store> {
        $0.onAnyEvent { @DatabaseActor store, event, context in   // runs on DatabaseActor
            store.saved.append(event.traceName)
            return .handled
        }
    }
}
// end snippet

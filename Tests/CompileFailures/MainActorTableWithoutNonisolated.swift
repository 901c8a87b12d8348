// The commonest mistake with a main-actor responder: its handler table declared as a plain
// `static let`, which a `@MainActor` class isolates to the main actor. The table must be read from
// the hop's `nonisolated` requirement, so this is a compile error; the MainActorResponder docs
// quote this diagnostic and say the fix is `nonisolated static let` (not the offered
// `@MainActor` conformance). This file keeps that quote true.
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// expect: error: conformance of 'CheckoutScreen' to protocol 'Responder' crosses into main actor-isolated code and can cause data races
// expect: note: main actor-isolated static property 'strategies' cannot satisfy nonisolated requirement

import ResponderChain

struct PayTapped: Event {}

@MainActor
final class CheckoutScreen: MainActorResponder {
    var isPaying = false
    var next: (any Responder)? { nil }

    static let strategies = Strategies<CheckoutScreen> {
        $0.on(PayTapped.self) { screen, _, _ in
            screen.isPaying = true
            return .handled
        }
    }
}

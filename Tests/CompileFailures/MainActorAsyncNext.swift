// A main-actor responder's `next` is read on the main actor as a plain call (one executor check
// and one async frame fewer per hop than reading it through `Responder`'s `async` requirement), so
// it must be synchronous. A `MainActorResponder` that declares it `get async` (which compiled
// before) is a compile error that points at the `async`; Docs/Migration.md quotes it. This file
// keeps that quote true; Correct/CorrectMainActorNext.swift is the same responder, synchronous.
//
// Typechecked by .ci/expect-compile-failures, in Swift 6 mode, against the built ResponderChain.
// expect: error: type 'ProductScreen' does not conform to protocol 'Hop._SynchronousMainActorNext'
// expect: note: candidate is 'async', but protocol requirement is not
// expect: note: add stubs for conformance
// expect: note: protocol requires property 'next' with type '(any Responder)?'

import ResponderChain

@MainActor
final class ProductScreen: MainActorResponder {
    var parent: ProductScreen?

    var next: (any Responder)? {
        get async { parent }
    }
}

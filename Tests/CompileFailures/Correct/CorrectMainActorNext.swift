// The control for MainActorAsyncNext.swift: the same main-actor responder with a synchronous
// `next`, computed or stored, compiles without a warning.

import ResponderChain

@MainActor
final class ProductScreen: MainActorResponder {
    var parent: ProductScreen?

    var next: (any Responder)? { parent }
}

@MainActor
final class StoredLinkScreen: MainActorResponder {
    var next: (any Responder)?
}

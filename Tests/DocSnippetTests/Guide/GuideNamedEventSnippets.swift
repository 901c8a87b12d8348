// swift-format-ignore-file
// Docs/Guide.md's Swift blocks of step 6, verbatim (checked by DocSnippetTests). An extension of
// `NamedEvent.Name` cannot live in a namespace, so this step's types are at the top level.

import ResponderChain

// snippet: Docs/Guide.md 12
extension NamedEvent.Name { static let addToCart: NamedEvent.Name = "addToCart" }

actor Cart: Responder {
    private(set) var skus: [String] = []
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<Cart> {
        $0.on(.addToCart, payload: String.self) { cart, sku, context in
            cart.skus.append(sku)
            return .handled
        }
    }
}
// end snippet

func guideStepSix(cell: some Responder) async {
    // snippet: Docs/Guide.md 13
    await cell.send(.addToCart, payload: "A-1")
    // end snippet
}

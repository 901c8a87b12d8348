// swift-format-ignore-file
// README.md's Swift blocks, verbatim (checked by DocSnippetTests): the regions keep the
// README's own layout, so swift-format leaves this file alone.

// snippet: README.md 1
import ResponderChain

struct ItemAdded: Event { let sku: String }
enum OrderID: InfoKey { typealias Value = Int }

actor Order: Responder {
    let id: Int
    let session: CustomerSession
    var items: [String] = []
    var next: (any Responder)? { session }             // read live, at every hop

    init(id: Int, session: CustomerSession) { self.id = id; self.session = session }

    static let strategies = Strategies<Order> {
        $0.on(ItemAdded.self) { order, event, context in
            order.items.append(event.sku)              // the order handles it…
            context.info[OrderID.self] = order.id      // …tells every hop above which order…
            return .handledAndContinue                 // …and lets it go on (only decorating? .pass)
        }
    }
}
// end snippet

// What the README leaves implicit: the session above the order (here, the root) and a line item
// below it.

actor CustomerSession: Responder {
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }
}

actor LineItem: Responder {
    let order: Order
    init(order: Order) { self.order = order }
    var next: (any Responder)? { order }
}

func readmeSend(from lineItem: LineItem) async {
    // snippet: README.md 2
    switch await lineItem.send(ItemAdded(sku: "A-1")) {
    case .handled(let handled):  print(handled.handlers, handled.hops)
    case .interrupted(let at):   print("chain broke after", at.lastReached)
    default:                     break
    }
    // end snippet
}

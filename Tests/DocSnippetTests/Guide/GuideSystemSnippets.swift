// swift-format-ignore-file
// Docs/Guide.md's Swift blocks of steps 7 and 8, verbatim (checked by DocSnippetTests).

import ResponderChain
import ResponderChainTesting

extension Guide {
    /// Compiled, never called: `EventSystem.bootstrap` sets the process-wide system once per
    /// process, and the other tests of this process run on the default.
    static func stepSevenBootstrap() throws {
        // snippet: Docs/Guide.md 14
        try EventSystem.bootstrap(
            EventSystem(
                tracer: PrintingTracer { print($0) },
                deadLetters: DeadLetter.Sink { letter in
                    print("dead letter: \(letter.event.traceName) — \(letter.outcome)")
                }))
        // end snippet
    }
}

// snippet: Docs/Guide.md 15
extension EventSystem {
    static let checkout = EventSystem(
        deadLetters: DeadLetter.Sink { letter in print("checkout lost \(letter.event.traceName)") },
        postingLimit: EventSystem.PostingLimit(maxOutstanding: 256))
}

protocol CheckoutResponder: Responder {}

extension CheckoutResponder {
    nonisolated var eventSystem: EventSystem { .checkout }
}

actor Basket: CheckoutResponder {                   // sends and posts through .checkout
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }
}
// end snippet

extension Guide {
    static func stepSevenOptions(lineItem: LineItem) async {
        // snippet: Docs/Guide.md 16
        let tracer = RecordingTracer()
        let outcome = await lineItem.send(ItemAdded(sku: "A-1"), options: SendOptions(tracer: tracer))
        print(tracer.lines(for: outcome.eventID).joined(separator: "\n"))
        // end snippet
    }
}

extension Guide {
    /// What step 8 leaves implicit: the event the gateway relays.
    struct PaymentConfirmed: Event {
        let order: Int
        let amountInCents: Int
    }

    static func stepEight(session: CustomerSession) async {
        // snippet: Docs/Guide.md 17
        let relay = Relay(entry: session, label: "PaymentGateway")
        await relay.send(PaymentConfirmed(order: 1042, amountInCents: 1609))
        // end snippet
    }
}

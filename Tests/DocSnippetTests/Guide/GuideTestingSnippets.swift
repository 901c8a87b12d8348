// swift-format-ignore-file
// Docs/Guide.md's Swift blocks of "Testing your chain", verbatim (checked by DocSnippetTests).
// They are written for a test's body; here they are compiled, never called.

import ResponderChain
import ResponderChainTesting
import Testing

extension Guide {
    static func testingOutcomeDetails(lineItem: LineItem, order: any Responder, cart: Cart)
        async throws
    {
        // snippet: Docs/Guide.md 28
        let handled = try #require(await lineItem.send(ItemAdded(sku: "A-1")).handledDetails)
        #expect(handled.handlers == [ResponderID(order)])
        #expect(handled.info[OrderID.self] == 42)

        let outcome = await cart.send(.addToCart, payload: 7)
        let mismatch = try #require(outcome.failedError(as: ResponderChainError.self))
        #expect(mismatch.code == .payloadTypeMismatch)
        // end snippet
    }

    static func testingDeadLetters(detachedItem: LineItem) async throws {
        // snippet: Docs/Guide.md 29
        let deadLetters = DeadLetterRecorder()
        let options = SendOptions(deadLetters: deadLetters.sink)   // or EventSystem(deadLetters:)

        await detachedItem.send(ItemAdded(sku: "A-1"), options: options)
        #expect(deadLetters.outcomes.map(\.kind) == [.interrupted])

        let letters = try await deadLetters.waitForLetters(1)     // for letters from posts, other tasks
        #expect(letters[0].source.responderID == ResponderID(detachedItem))
        // end snippet
    }

    /// What the gate's block leaves implicit: an order that can move to another session.
    actor MovableOrder: Responder {
        private var session: CustomerSession
        init(session: CustomerSession) { self.session = session }
        var next: (any Responder)? { session }
        func move(to session: CustomerSession) { self.session = session }
    }

    static func testingGate(lineItem: LineItem, order: MovableOrder, otherSession: CustomerSession)
        async throws
    {
        // snippet: Docs/Guide.md 30
        let gate = Gate()
        // in a handler:  try await gate.pass()
        let sending = Task { await lineItem.send(ItemAdded(sku: "A-1")) }
        try await gate.waitForArrivals(1)      // the handler is parked now
        await order.move(to: otherSession)     // re-link: the event follows at its next hop
        gate.open()
        let outcome = await sending.value
        #expect(outcome.kind == .handled)
        // end snippet
    }

    /// What the wait's block leaves implicit: an order that lists its items.
    actor ListingOrder {
        var items: [String] = []
    }

    static func testingWaitUntil(system: EventSystem, lineItem: LineItem, order: ListingOrder)
        async throws
    {
        // snippet: Docs/Guide.md 31
        await lineItem.post(ItemAdded(sku: "A-1"))     // delivered in a task of its own
        try await waitUntil("the order has the item", observing: system) { await order.items == ["A-1"] }

        let shutdown = Task { await system.shutDown(gracePeriod: .seconds(60)) }
        try await waitUntil("the shutdown has begun") { system.isShuttingDown }     // nothing signals it
        // end snippet
        _ = shutdown
    }
}

extension Guide {
    static func observing(system: EventSystem, lineItem: LineItem) async {
        // snippet: Docs/Guide.md 32
        let outcomes = system.observeOutcomes()
        let audit = system.observeDeadLetters(buffering: .keepingOldest(10_000))

        let ticket = await lineItem.post(ItemAdded(sku: "A-1"))
        for await finished in outcomes where finished.outcome.eventID == ticket.eventID {
            #expect(finished.outcome.isHandled)
            break
        }
        #expect(audit.droppedCount == 0)
        // end snippet
    }
}

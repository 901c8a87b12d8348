// swift-format-ignore-file
// Docs/Guide.md's Swift blocks of step 10, verbatim (checked by DocSnippetTests).

import ResponderChain

extension Guide {
    static func stepTenPosting(lineItem: LineItem) async {
        // snippet: Docs/Guide.md 20
        let ticket = await lineItem.post(ItemAdded(sku: "A-1"))   // returns once queued
        ticket.cancel()                                           // stops it before its next hop
        print(await ticket.outcome)                               // still exactly one outcome
        // end snippet
    }

    static func stepTenTimeout(lineItem: LineItem) async {
        // snippet: Docs/Guide.md 21
        let quick = SendOptions(timeout: .seconds(2))
        await lineItem.send(ItemAdded(sku: "A-1"), options: quick)     // 2 s from this send
        await lineItem.send(ItemAdded(sku: "B-7"), options: quick)     // and 2 s from this one
        // end snippet
    }

    // snippet: Docs/Guide.md 22
    actor Ledger: Responder {
        private(set) var entries: [String] = []
        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }
        nonisolated let handlingLock: HandlingLock? = HandlingLock()
    }
    // end snippet

    static func stepTenSharedExecutor(lineItem: LineItem) async {
        // snippet: Docs/Guide.md 23
        let checkout = SharedExecutor(label: "checkout")
        // in each actor: nonisolated var unownedExecutor: UnownedSerialExecutor { checkout.unownedExecutor }
        let outcome = await checkout.run { _ in await lineItem.send(ItemAdded(sku: "A-1")) }
        print(outcome)
        // end snippet
    }

    /// Compiled, never called: shutting the process-wide system down would refuse the posts of
    /// every other test in this process.
    static func stepTenShutdown() async {
        // snippet: Docs/Guide.md 24
        let report = await EventSystem.default.shutDown(gracePeriod: .seconds(5))
        print(report)       // 12 finished, 0 ended early, 3 refused
        // end snippet
    }
}

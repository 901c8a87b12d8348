import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Removing handlers from a table")
    struct StrategiesRemovalTests {
        @Test(
            "removing by type or by name, the proxy or the catch-all takes out only that; the rest still runs"
        )
        func removal() async throws {
            let proxy = EventProxy(.handled)
            var table = Strategies<Counter> {
                $0.on(Ping.self) { _, _, _ in .handled }
                $0.on(ItemAdded.self) { _, _, _ in .handled }
                $0.on(.addToCart, payload: String.self) { _, _, _ in .handled }
                $0.proxy { $0.proxy }
                $0.onAnyEvent { _, _, _ in .handled }
            }
            #expect(table.count == 3)
            #expect(!table.isEmpty)

            table.remove(Ping.self)
            table.remove(.addToCart)
            table.remove(Knock.self)  // not there: nothing happens
            #expect(table.count == 1)
            #expect(!table.handles(Ping.self))
            #expect(!table.handles(.addToCart))
            #expect(table.handles(ItemAdded.self))

            let counter = Counter(table: table, proxy: proxy)
            #expect(await counter.send(ItemAdded(sku: "A")).kind == .handled)
            #expect(await counter.send(Knock()).kind == .handled)  // by the proxy
            #expect(await proxy.seen == ["Knock"])

            table.removeProxy()
            let withoutProxy = Counter(table: table, proxy: proxy)
            #expect(await withoutProxy.send(Knock()).kind == .handled)  // by the catch-all
            #expect(await proxy.seen == ["Knock"])

            table.removeAnyEventHandler()
            let withoutCatchAll = Counter(table: table, proxy: proxy)
            #expect(await withoutCatchAll.send(Knock()).kind == .unhandled)

            table.remove(ItemAdded.self)
            #expect(table.isEmpty)
        }
    }
}

/// A root whose handler table is given at creation instead of being its type's.
private actor Counter: Responder {
    let table: Strategies<Counter>
    let proxy: any Responder
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    init(table: Strategies<Counter>, proxy: any Responder) {
        self.table = table
        self.proxy = proxy
    }

    nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext) async throws
        -> Disposition
    {
        try await runTable(event, context: &context)
    }

    /// The table runs on the actor: its synchronous handlers are plain calls there.
    private func runTable(_ event: any Event, context: inout EventContext) async throws -> Disposition {
        try await table.run(on: self, from: #isolation, event: event, context: &context)
    }
}

import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import Testing

/// An event the article's outbox example posts.
struct StockReserved: Event, Codable {
    let sku: String
}

/// Docs/Durability.md's Swift blocks, compiled here (`.ci/docs.py check-code-blocks` checks that
/// their lines are these); what the inbox and outbox blocks do is tested in InboxTests and
/// OutboxTests.
@Suite("The durability article's examples compile and open a store")
struct DurabilityArticleSnippets {
    static func open(databasePath: String) throws -> EventSystem {
        var events = StoredEvents()
        try events.register(OrderPlaced.self, as: "order-placed")
        let store = try SQLitePostStore(path: databasePath, events: events, durability: .processCrash)
        let system = EventSystem(storage: .store(store))
        return system
    }

    static func ship(_ event: OrderPlaced, context: EventContext, store: SQLitePostStore) async throws {
        try await store.inbox.handleOnce(context.eventID) { db in
            try db.execute(sql: "INSERT INTO shipment (order_id) VALUES (?)", arguments: [event.order])
        }
    }

    static func reserve(sku: String, store: SQLitePostStore, system: EventSystem) async throws {
        try await store.write(delivering: system) { db, outbox in
            try db.execute(sql: "UPDATE stock SET count = count - 1 WHERE sku = ?", arguments: [sku])
            try outbox.post(StockReserved(sku: sku), to: "orders", key: "order-o-17")
        }
    }

    @Test("The opening example opens a store in a new file")
    func opens() async throws {
        let directory = try TemporaryDirectory()
        let system = try Self.open(databasePath: directory.file("orders.sqlite"))
        #expect(try await system.storedOutcome(of: EventID()) == nil)
    }
}

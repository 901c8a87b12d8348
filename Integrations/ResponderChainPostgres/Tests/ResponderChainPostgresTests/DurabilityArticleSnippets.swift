import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

/// Docs/Durability.md's PostgreSQL block, compiled here (`.ci/docs.py check-code-blocks` checks
/// that its lines are these) and run against a new database.
@Suite("The durability article's PostgreSQL example compiles and opens a store", .timeLimit(.minutes(1)))
struct DurabilityArticleSnippets {
    static func open(
        client: PostgresClient, events: StoredEvents, ordersDesk: some Responder, logger: Logger
    ) async throws -> EventSystem {
        let store = try PostgresPostStore(client: client, events: events, lease: .seconds(30), logger: logger)
        try await store.migrate()
        let system = EventSystem(storage: .shared(store))
        try system.register(ordersDesk, as: "orders")
        return system
    }

    @Test("The article's store opens and migrates")
    func opens() async throws {
        try await withDatabase { client, _ in
            let system = try await Self.open(
                client: client, events: try .forTests(), ordersDesk: ScriptedResponder("orders"),
                logger: TestServer.quiet)
            _ = await system.shutDown(gracePeriod: .seconds(1))
        }
    }
}

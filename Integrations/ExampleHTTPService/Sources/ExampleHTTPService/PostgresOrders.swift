internal import Logging
internal import PostgresNIO
internal import ResponderChain
internal import ResponderChainPostgres

/// The PostgreSQL side of an ``OrderService`` on ``OrderStorage/postgres(_:)``: the client, the
/// shared store, and the orders in the same database.
struct PostgresOrders: Sendable {
    let client: PostgresClient
    let store: PostgresPostStore
    let booked: PostgresBookedOrders

    /// The client and the store for `settings`; nothing connects until the client runs.
    init(_ settings: PostgresOrderStorage, logger: Logger, metrics: PostgresStoreMetrics) throws {
        client = PostgresClient(configuration: try settings.configuration(), backgroundLogger: logger)
        store = try PostgresPostStore(
            client: client, events: OrderBook.storedEvents,
            consumer: settings.consumer ?? PostgresPostStore.defaultConsumerName(), lease: settings.lease,
            logger: logger, metrics: metrics)
        booked = PostgresBookedOrders(store: store, logger: logger)
    }

    /// Migrates the store's schema and the orders' tables (several instances starting at once
    /// take turns), then starts `system`'s consumer of the store. Run it once the client runs.
    func prepare(stock: [String: Int], system: EventSystem) async throws {
        try await store.migrate()
        try await booked.prepare(stock: stock)
        system.startConsuming(claimingUpTo: 64, pollInterval: .milliseconds(250))
    }
}

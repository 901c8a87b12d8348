import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

/// The article's redrive example.
func redriveFailedOrders(in system: EventSystem) async throws -> Int {
    let query = EventSystem.DeadLetterQuery(eventNames: ["order-placed"], outcomes: [.failed])
    for letter in try await system.storedDeadLetters(matching: query) {
        print(letter.post.id, letter.post.key, letter.outcome, letter.age)
    }
    return try await system.redriveDeadLetters(matching: query, perSecond: 500)
}

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

    @Test(
        "The redrive example sends the failed orders again: their effects, made before they failed, are not made twice"
    )
    func redrivesFailedOrders() async throws {
        let directory = try TemporaryDirectory()
        var events = StoredEvents()
        try events.register(OrderPlaced.self, as: "order-placed")
        let store = try SQLitePostStore(path: directory.file("orders.sqlite"), events: events)
        try await store.write { db, _ in try db.execute(sql: "CREATE TABLE shipment (order_id TEXT)") }
        let system = EventSystem(storage: .store(store))
        let failing = Failing()
        let desk = ShippingDesk(system: system, store: store, failing: failing)
        try system.register(desk, as: "orders")
        var tickets: [Ticket] = []
        for order in ["o-1", "o-2", "o-3"] { tickets.append(await desk.post(OrderPlaced(order: order))) }
        for ticket in tickets { #expect(await ticket.outcome.kind == .failed) }
        await failing.set(false)

        #expect(try await redriveFailedOrders(in: system) == 3)
        try await waitUntil("the letters sent again are handled", observing: system) {
            await desk.handled == 3
        }
        await system.shutDown(gracePeriod: .seconds(10))
        let shipments = try await store.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM shipment")
        }
        #expect(shipments == 3)  // made once, in the attempt that failed after making it
        #expect(try await system.storedDeadLetters().isEmpty)
        for ticket in tickets { #expect(try await store.outcome(of: ticket.eventID)?.kind == .handled) }
    }

    @Test("The opening example opens a store in a new file")
    func opens() async throws {
        let directory = try TemporaryDirectory()
        let system = try Self.open(databasePath: directory.file("orders.sqlite"))
        #expect(try await system.storedOutcome(of: EventID()) == nil)
    }
}

/// Whether ``ShippingDesk`` fails after its effect.
private actor Failing {
    private(set) var on = true
    func set(_ on: Bool) { self.on = on }
}

/// Ships an order once through the store's inbox, then fails while ``Failing`` is on: an effect
/// made by an attempt that failed.
private actor ShippingDesk: Responder {
    nonisolated let eventSystem: EventSystem
    let store: SQLitePostStore
    let failing: Failing
    private(set) var handled = 0

    init(system: EventSystem, store: SQLitePostStore, failing: Failing) {
        self.eventSystem = system
        self.store = store
        self.failing = failing
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    func ship(_ order: OrderPlaced, id: EventID) async throws -> Disposition {
        try await store.inbox.handleOnce(id) { db in
            try db.execute(sql: "INSERT INTO shipment (order_id) VALUES (?)", arguments: [order.order])
        }
        if await failing.on { throw ShipmentLost() }
        handled += 1
        return .handled
    }

    static let strategies = Strategies<ShippingDesk> {
        $0.on(OrderPlaced.self) { desk, order, context in try await desk.ship(order, id: context.eventID) }
    }
}

private struct ShipmentLost: Error {}

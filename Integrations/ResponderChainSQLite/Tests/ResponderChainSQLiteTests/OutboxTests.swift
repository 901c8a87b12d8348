import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainTesting
import Testing

@Suite("The outbox posts only what a committed transaction wrote")
struct OutboxTests {
    struct Refused: Error {}

    static func makeStore(_ directory: TemporaryDirectory) async throws -> SQLitePostStore {
        let store = try SQLitePostStore(path: directory.file(), events: try .forTests())
        try await store.write { db, _ in try db.execute(sql: "CREATE TABLE reservation (order_id TEXT)") }
        return store
    }

    static func reservations(_ store: SQLitePostStore) async throws -> Int {
        try await store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM reservation") ?? 0 }
    }

    @Test("A committed transaction keeps its rows and its posts, in post order")
    func commits() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.makeStore(directory)
        let ids = try await store.write { db, outbox in
            try db.execute(sql: "INSERT INTO reservation VALUES ('o-1')")
            return [
                try outbox.post(
                    OrderPlaced(order: "o-1"), to: "orders", key: "order-o-1", timeLeft: .seconds(60)),
                try outbox.post(OrderPlaced(order: "o-2"), to: "orders", key: "order-o-2"),
            ]
        }
        let unfinished = try await store.unfinished()
        #expect(unfinished.map(\.id) == ids)
        #expect(unfinished.map(\.order) == ["o-1", "o-2"])
        #expect(unfinished.map(\.key) == ["order-o-1", "order-o-2"])
        #expect(try await Self.reservations(store) == 1)
    }

    @Test(
        "Once the transaction commits, its posts are delivered by the system, under their stored identifiers, and finished"
    )
    func committedPostsAreDelivered() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.makeStore(directory)
        let system = EventSystem(storage: .store(store))
        let desk = ScriptedResponder("orders", .handle, root: true, system: system)
        try system.register(desk, as: "orders")
        let id = try await store.write(delivering: system) { db, outbox in
            try db.execute(sql: "INSERT INTO reservation VALUES ('o-1')")
            return try outbox.post(OrderPlaced(order: "o-1"), to: "orders", key: "order-o-1")
        }
        try await waitUntil("the outbox's post is handled", observing: system) { await desk.seen.count == 1 }
        #expect(await desk.seen.map(\.eventID) == [id])
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(try await store.outcome(of: id)?.kind == .handled)
        #expect(try await store.unfinished().isEmpty)
    }

    @Test("A transaction that throws keeps neither its rows nor its posts")
    func rollsBack() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.makeStore(directory)
        await #expect(throws: Refused.self) {
            try await store.write { db, outbox in
                try db.execute(sql: "INSERT INTO reservation VALUES ('o-1')")
                try outbox.post(OrderPlaced(order: "o-1"), to: "orders", key: "order-o-1")
                throw Refused()
            }
        }
        #expect(try await store.unfinished().isEmpty)
        #expect(try await Self.reservations(store) == 0)
    }

    @Test("Posting an unregistered event fails the transaction with a typed error")
    func unregistered() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.makeStore(directory)
        await #expect(throws: SQLitePostStoreError.self) {
            try await store.write { db, outbox in
                try db.execute(sql: "INSERT INTO reservation VALUES ('o-1')")
                try outbox.post(Unregistered(), to: "orders", key: "order-o-1")
            }
        }
        #expect(try await Self.reservations(store) == 0)
    }

    @Test("An outbox post with a held idempotency key writes nothing and names the earlier post")
    func idempotent() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.makeStore(directory)
        let first = try await store.write { _, outbox in
            try outbox.post(OrderPlaced(order: "o-1"), to: "orders", key: "o", idempotencyKey: "reserve-o-1")
        }
        let second = try await store.write { _, outbox in
            try outbox.post(OrderPlaced(order: "o-1"), to: "orders", key: "o", idempotencyKey: "reserve-o-1")
        }
        #expect(first == second)
        #expect(try await store.unfinished().count == 1)
    }
}

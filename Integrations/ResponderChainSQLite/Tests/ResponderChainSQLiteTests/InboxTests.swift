import GRDB
import ResponderChain
import ResponderChainSQLite
import Testing

@Suite("The inbox runs an event's effects once")
struct InboxTests {
    struct Refused: Error {}

    static func shipments(_ store: SQLitePostStore) async throws -> Int {
        try await store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shipment") ?? 0 }
    }

    static func makeStore(_ path: String) async throws -> SQLitePostStore {
        let store = try SQLitePostStore(path: path, events: try .forTests())
        try await store.write { db, _ in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS shipment (order_id TEXT)")
        }
        return store
    }

    @Test("A second delivery of the same event changes nothing, also after the store is opened again")
    func runsOnce() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.makeStore(directory.file())
        let id = EventID()
        let ship: @Sendable (Database) throws -> Void = { db in
            try db.execute(sql: "INSERT INTO shipment VALUES ('o-1')")
        }
        #expect(try await store.inbox.handleOnce(id, ship))
        #expect(try await store.inbox.handleOnce(id, ship) == false)
        #expect(try await store.inbox.hasHandled(id))
        let reopened = try await Self.makeStore(directory.file())
        #expect(try await reopened.inbox.handleOnce(id, ship) == false)
        #expect(try await Self.shipments(reopened) == 1)
        #expect(try await reopened.inbox.handleOnce(EventID(), ship))
        #expect(try await Self.shipments(reopened) == 2)
    }

    @Test("Effects that throw are rolled back and the event is not marked: the next delivery runs them")
    func throwingEffects() async throws {
        let directory = try TemporaryDirectory()
        let store = try await Self.makeStore(directory.file())
        let id = EventID()
        await #expect(throws: Refused.self) {
            try await store.inbox.handleOnce(id) { db in
                try db.execute(sql: "INSERT INTO shipment VALUES ('o-1')")
                throw Refused()
            }
        }
        #expect(try await Self.shipments(store) == 0)
        #expect(try await store.inbox.hasHandled(id) == false)
        #expect(
            try await store.inbox.handleOnce(id) { db in
                try db.execute(sql: "INSERT INTO shipment VALUES ('o-1')")
            })
        #expect(try await Self.shipments(store) == 1)
    }
}

import GRDB
import ResponderChain
import ResponderChainSQLite
import Testing

@Suite("The schema migrates by user_version, once")
struct MigrationTests {
    @Test("Opening a file twice migrates it once and keeps its rows")
    func openTwice() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let first = try SQLitePostStore(path: path, events: try .forTests())
        let post = EventSystem.StoredPost.order("o-1")
        _ = try await first.store([post])
        let version = try await first.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") }
        let second = try SQLitePostStore(path: path, events: try .forTests())
        #expect(try await second.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == version)
        #expect(try await second.unfinished().map(\.id) == [post.id])
    }

    @Test("A file of version 0 with the application's own tables gets the store's beside them")
    func versionZeroFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let application = try DatabaseQueue(path: path)
        try await application.write { db in
            try db.execute(sql: "CREATE TABLE shipment (order_id TEXT); INSERT INTO shipment VALUES ('o-0')")
        }
        try application.close()
        let store = try SQLitePostStore(path: path, events: try .forTests())
        let (version, shipments) = try await store.read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA user_version"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shipment")
            )
        }
        #expect(version == 1)
        #expect(shipments == 1)
        _ = try await store.store([.order("o-1")])
        #expect(try await store.unfinished().count == 1)
    }

    @Test("A file of a newer schema is refused and left untouched")
    func newerFile() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let application = try DatabaseQueue(path: path)
        try await application.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = 99")
        }
        try application.close()
        #expect(throws: SQLitePostStoreError.newerSchema(found: 99, known: 1)) {
            try SQLitePostStore(path: path, events: try .forTests())
        }
        let reread = try DatabaseQueue(path: path)
        #expect(try await reread.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 99)
        #expect(try await reread.read { db in try db.tableExists("responder_post") } == false)
    }
}

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
        #expect(version == 3)
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
        #expect(throws: SQLitePostStoreError.newerSchema(found: 99, known: 3)) {
            try SQLitePostStore(path: path, events: try .forTests())
        }
        let reread = try DatabaseQueue(path: path)
        #expect(try await reread.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") } == 99)
        #expect(try await reread.read { db in try db.tableExists("responder_post") } == false)
    }

    @Test("A post's failed attempts that do not read end the read typed, naming the row")
    func malformedFailedAttempts() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(path: directory.file(), events: try .forTests())
        let post = EventSystem.StoredPost.order("o-1")
        _ = try await store.store([post])
        try await store.recordFailure(
            .init(
                id: post.id, number: 1, outcome: .init(kind: .failed, description: "offline"),
                retryAfter: .seconds(1)))
        #expect(try await store.unfinished().first?.failedAttempts.map(\.number) == [1])
        for (value, reason) in [
            ("not json", "its failed attempts do not read"),
            (
                #"[{"number":2,"kind":"failed","description":"","endedAt":0}]"#,
                "failed attempt 1 is numbered 2"
            ),
            (
                #"[{"number":1,"kind":"exploded","description":"","endedAt":0}]"#,
                #"failed attempt 1 has outcome kind "exploded""#
            ),
        ] {
            try await store.write { db, _ in
                try db.execute(sql: "UPDATE responder_post SET failed_attempts = ?", arguments: [value])
            }
            await #expect {
                try await store.unfinished()
            } throws: { error in
                guard case SQLitePostStoreError.malformedRow(_, let found) = error else { return false }
                return found.hasPrefix(reason)
            }
        }
    }
}

import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import Testing

@Suite("A durability mode sets what each commit waits for")
struct DurabilityTests {
    @Test(
        "The mode sets synchronous, in write-ahead-log mode",
        arguments: [(SQLitePostStore.Durability.processCrash, 1), (.powerLoss, 2)])
    func setsThePragma(_ durability: SQLitePostStore.Durability, synchronous: Int) async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(
            path: directory.file(), events: try .forTests(), durability: durability)
        let (mode, journal) = try await store.read { db in
            (
                try Int.fetchOne(db, sql: "PRAGMA synchronous"),
                try String.fetchOne(db, sql: "PRAGMA journal_mode")
            )
        }
        #expect(mode == synchronous)
        #expect(journal == "wal")
    }

    @Test("A power-safe store's finish commits without a flush of its own, and the next commit flushes again")
    func powerSafeFinishRidesOnTheNextFlush() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(
            path: directory.file(), events: try .forTests(), durability: .powerLoss)
        let traced = TracedStatements()
        try await store.read { db in db.trace { traced.append($0.description) } }
        let post = EventSystem.StoredPost.order("o-1")
        _ = try await store.store([post])
        try await store.finish([.init(id: post.id, outcome: .init(kind: .handled, description: "handled"))])
        let statements = traced.all
        let relaxed = try #require(statements.firstIndex(of: "PRAGMA synchronous = 1"))
        let update = try #require(statements.firstIndex { $0.hasPrefix("UPDATE responder_post") })
        let restored = try #require(statements.lastIndex(of: "PRAGMA synchronous = 2"))
        #expect(relaxed < update && update < restored)
        // The store's insert ran with the mode's own setting.
        let insert = try #require(statements.firstIndex { $0.hasPrefix("INSERT") })
        #expect(insert < relaxed)
        #expect(try await store.read { db in try Int.fetchOne(db, sql: "PRAGMA synchronous") } == 2)
        #expect(try await store.outcome(of: post.id)?.kind == .handled)
    }

    @Test("A crash-safe store's finish runs in the mode's own setting")
    func crashSafeFinishChangesNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(
            path: directory.file(), events: try .forTests(), durability: .processCrash)
        let traced = TracedStatements()
        try await store.read { db in db.trace { traced.append($0.description) } }
        let post = EventSystem.StoredPost.order("o-1")
        _ = try await store.store([post])
        try await store.finish([.init(id: post.id, outcome: .init(kind: .handled, description: "handled"))])
        #expect(!traced.all.contains { $0.hasPrefix("PRAGMA synchronous") })
        #expect(try await store.outcome(of: post.id)?.kind == .handled)
    }

    @Test("A setting out of range is refused with a typed error")
    func refusesBadSettings() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: SQLitePostStoreError.invalidSetting("walSizeLimit must be positive")) {
            try SQLitePostStore(path: directory.file(), events: StoredEvents(), walSizeLimit: 0)
        }
        #expect(throws: SQLitePostStoreError.invalidSetting("retention must be positive")) {
            try SQLitePostStore(path: directory.file(), events: StoredEvents(), retention: .zero)
        }
    }
}

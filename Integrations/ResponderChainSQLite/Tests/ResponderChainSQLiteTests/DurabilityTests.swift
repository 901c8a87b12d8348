import GRDB
import ResponderChain
import ResponderChainSQLite
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

import Foundation
import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainTesting
import Testing

@Suite("The write-ahead log stays bounded, also past a long reader")
struct WALBoundTests {
    static let limit = 256 << 10

    /// The log's size in bytes.
    static func logSize(_ path: String) -> Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Stores `batches` batches of 50 posts of about 1 KiB each, returning the largest log size seen
    /// after a batch.
    static func load(_ store: SQLitePostStore, batches: Int) async throws -> Int {
        var largest = 0
        let text = String(repeating: "x", count: 1000)
        for batch in 0..<batches {
            let posts = (0..<50).map { number in
                EventSystem.StoredPost(
                    id: EventID(), key: .init("k\(number % 4)"), entry: "desk",
                    payload: .event(PostStoreConformance.Sample(number: batch * 50 + number, text: text)))
            }
            _ = try await store.store(posts)
            largest = max(largest, logSize(store.path))
        }
        return largest
    }

    @Test("Under load the log never passes its limit by more than one commit")
    func boundedUnderLoad() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(
            path: directory.file(), events: try .forTests(), walSizeLimit: Self.limit)
        let largest = try await Self.load(store, batches: 100)  // about 5 MiB written
        #expect(largest <= Self.limit + 128 << 10)
    }

    @Test("A reader holding a snapshot lets the log grow, and the first commit after it ends truncates it")
    func readerHeldOpen() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let store = try SQLitePostStore(path: path, events: try .forTests(), walSizeLimit: Self.limit)
        _ = try await Self.load(store, batches: 2)

        // Another connection opens a read transaction and keeps it.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        let seen = try await reader.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN DEFERRED")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM responder_post") ?? 0
        }
        #expect(seen == 100)

        // The store goes on accepting (it does not wait for the reader), and the log grows past
        // its limit: SQLite cannot checkpoint past the reader's snapshot.
        let grown = try await Self.load(store, batches: 40)
        #expect(grown > 4 * Self.limit)

        try await reader.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        _ = try await Self.load(store, batches: 1)
        #expect(Self.logSize(path) <= Self.limit)
        let afterwards = try await Self.load(store, batches: 40)
        #expect(afterwards <= Self.limit + 128 << 10)
        #expect(try await store.unfinished().count == 83 * 50)
    }
}

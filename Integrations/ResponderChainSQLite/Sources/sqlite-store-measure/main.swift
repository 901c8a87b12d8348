// sqlite-store-measure: rows per second through SQLitePostStore against the same rows inserted
// and finished through GRDB with no library on top, in batches of 1, 100 and 1000 rows per
// transaction, in both durability modes. Build it in release:
//
//   swift run -c release --package-path Integrations/ResponderChainSQLite sqlite-store-measure [rows]
//
// Each figure is the median of three runs on a new file; batches of one row write at most 2,000
// rows (one disk flush each in powerLoss mode).
import Foundation
import GRDB
import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents

struct Placed: Event, Codable {
    let order: String
    let note: String
}

let rows = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 100_000
let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "sqlite-store-measure-\(UUID().uuidString)"
).path
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
let events = try {
    var events = StoredEvents()
    try events.register(Placed.self, as: "placed")
    return events
}()
let note = String(repeating: "n", count: 80)  // about 100 bytes of JSON per event

/// Seconds `body` takes, on the continuous clock.
func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    let elapsed = start.duration(to: clock.now).components
    return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
}

func newFile() -> String { directory + "/\(UUID().uuidString).sqlite" }

/// Inserts and finishes `count` rows through GRDB alone, in the store's table shape.
func raw(_ durability: SQLitePostStore.Durability, batch: Int, count: Int) async throws -> (Double, Double) {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
        try db.execute(sql: "PRAGMA journal_mode = WAL")
        try db.execute(sql: "PRAGMA synchronous = \(durability.synchronous)")
    }
    let queue = try DatabaseQueue(path: newFile(), configuration: configuration)
    try await queue.write { db in
        try db.execute(
            sql: """
                CREATE TABLE post (sequence INTEGER PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL UNIQUE,
                    ordering_key TEXT NOT NULL, entry TEXT NOT NULL, type_name TEXT NOT NULL,
                    schema_version INTEGER NOT NULL, payload BLOB NOT NULL, idempotency_key TEXT UNIQUE,
                    deadline_ns INTEGER, trace_context TEXT, stored_at_ns INTEGER NOT NULL, finished_at_ns INTEGER,
                    outcome_kind TEXT, outcome_description TEXT);
                CREATE INDEX post_unfinished ON post(sequence) WHERE finished_at_ns IS NULL;
                """)
    }
    let payload = try JSONEncoder().encode(Placed(order: "o-1", note: note))
    let ids = (0..<count).map { number in withUnsafeBytes(of: UInt64(number + 1).bigEndian) { Data($0) } }
    let insert = try await seconds {
        for start in stride(from: 0, to: count, by: batch) {
            try await queue.write { db in
                let statement = try db.cachedStatement(
                    sql: """
                        INSERT INTO post (id, ordering_key, entry, type_name, schema_version, payload, idempotency_key,
                            deadline_ns, trace_context, stored_at_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                for number in start..<min(start + batch, count) {
                    try statement.execute(arguments: [
                        ids[number], "k\(number % 4)", "orders", "placed", 1, payload, "i\(number)", nil, nil,
                        0,
                    ])
                }
            }
        }
    }
    let finish = try await seconds {
        for start in stride(from: 0, to: count, by: batch) {
            try await queue.write { db in
                let statement = try db.cachedStatement(
                    sql: """
                        UPDATE post SET finished_at_ns = ?, outcome_kind = ?, outcome_description = ?
                        WHERE id = ? AND finished_at_ns IS NULL
                        """)
                for number in start..<min(start + batch, count) {
                    try statement.execute(arguments: [1, "handled", "handled by orders", ids[number]])
                }
            }
        }
    }
    return (Double(count) / insert, Double(count) / finish)
}

/// Stores and finishes `count` posts through the store.
func store(_ durability: SQLitePostStore.Durability, batch: Int, count: Int) async throws -> (Double, Double)
{
    let store = try SQLitePostStore(path: newFile(), events: events, durability: durability)
    let posts = (0..<count).map { number in
        EventSystem.StoredPost(
            id: EventID(), key: .init("k\(number % 4)"), entry: "orders",
            payload: .event(Placed(order: "o-\(number)", note: note)), idempotencyKey: "i\(number)")
    }
    let insert = try await seconds {
        for start in stride(from: 0, to: count, by: batch) {
            _ = try await store.store(Array(posts[start..<min(start + batch, count)]))
        }
    }
    let outcome = EventSystem.StoredOutcome(kind: .handled, description: "handled by orders")
    let finish = try await seconds {
        for start in stride(from: 0, to: count, by: batch) {
            try await store.finish(
                posts[start..<min(start + batch, count)].map { .init(id: $0.id, outcome: outcome) })
        }
    }
    return (Double(count) / insert, Double(count) / finish)
}

func median(_ runs: () async throws -> (Double, Double)) async rethrows -> (Double, Double) {
    var results: [(Double, Double)] = []
    for _ in 0..<3 { results.append(try await runs()) }
    return (results.map(\.0).sorted()[1], results.map(\.1).sorted()[1])
}

print(
    "| mode | rows per commit | rows | GRDB insert/s | store insert/s | ratio | GRDB finish/s | store finish/s | ratio |"
)
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
for durability in [SQLitePostStore.Durability.processCrash, .powerLoss] {
    for batch in [1, 100, 1000] {
        let count = batch == 1 ? min(rows, 2000) : rows
        let (rawInsert, rawFinish) = try await median {
            try await raw(durability, batch: batch, count: count)
        }
        let (storeInsert, storeFinish) = try await median {
            try await store(durability, batch: batch, count: count)
        }
        print(
            "| \(durability) | \(batch) | \(count) | \(Int(rawInsert)) | \(Int(storeInsert)) | "
                + String(format: "%.2f", storeInsert / rawInsert)
                + " | \(Int(rawFinish)) | \(Int(storeFinish)) | "
                + String(format: "%.2f", storeFinish / rawFinish) + " |")
    }
}

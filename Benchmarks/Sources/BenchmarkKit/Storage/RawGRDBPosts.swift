#if RemoteAndStores
    import Foundation
    import GRDB

    /// The stored-posts scenario's raw limit: the same rows in the same table shape, inserted (and
    /// finished) in batches of a given size through GRDB with no library on top, as
    /// `sqlite-store-measure`'s raw path does.
    enum RawGRDBPosts {
        /// The time `count` rows take to be inserted in transactions of `batch` rows, and then, from
        /// the start, to be finished in transactions of the same size, on a new file in
        /// `directory` in WAL mode with `synchronous` (1, `NORMAL`, or 2, `FULL`).
        static func run(synchronous: Int, batch: Int, count: Int, directory: String) async throws -> (
            inserted: Duration, finished: Duration
        ) {
            var configuration = Configuration()
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA journal_mode = WAL")
                try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            }
            let path = directory + "/raw-\(UUID().uuidString).sqlite"
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            try await queue.write { db in
                try db.execute(
                    sql: """
                        CREATE TABLE post (sequence INTEGER PRIMARY KEY AUTOINCREMENT, id BLOB NOT NULL UNIQUE,
                            ordering_key TEXT NOT NULL, entry TEXT NOT NULL, type_name TEXT NOT NULL,
                            schema_version INTEGER NOT NULL, payload BLOB NOT NULL, idempotency_key TEXT UNIQUE,
                            deadline_ns INTEGER, trace_context TEXT, stored_at_ns INTEGER NOT NULL,
                            finished_at_ns INTEGER, outcome_kind TEXT, outcome_description TEXT);
                        CREATE INDEX post_unfinished ON post(sequence) WHERE finished_at_ns IS NULL;
                        """)
            }
            let payload = try JSONEncoder().encode(StoredOrder(number: 0))
            let ids = (0..<count).map { number in
                withUnsafeBytes(of: (UInt64(1).bigEndian, UInt64(number + 1).bigEndian)) { Data($0) }
            }
            let clock = ContinuousClock()
            let start = clock.now
            for first in stride(from: 0, to: count, by: batch) {
                try await queue.write { db in
                    let statement = try db.cachedStatement(
                        sql: """
                            INSERT INTO post (id, ordering_key, entry, type_name, schema_version, payload,
                                idempotency_key, deadline_ns, trace_context, stored_at_ns)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """)
                    for number in first..<min(first + batch, count) {
                        try statement.execute(arguments: [
                            ids[number], "poster-\(number % 4)", "poster-\(number % 4)", "order", 1, payload,
                            nil,
                            nil, nil, 0,
                        ])
                    }
                }
            }
            let inserted = start.duration(to: clock.now)
            for first in stride(from: 0, to: count, by: batch) {
                try await queue.write { db in
                    let statement = try db.cachedStatement(
                        sql: """
                            UPDATE post SET finished_at_ns = ?, outcome_kind = ?, outcome_description = ?
                            WHERE id = ? AND finished_at_ns IS NULL
                            """)
                    for number in first..<min(first + batch, count) {
                        try statement.execute(arguments: [1, "handled", "handled by OrderDesk", ids[number]])
                    }
                }
            }
            let finished = start.duration(to: clock.now)
            try queue.close()
            return (inserted, finished)
        }
    }
#endif

internal import Foundation
public import GRDB
public import ResponderChain
public import ResponderChainStoredEvents
internal import Synchronization

/// A ``EventSystem/PostStore`` in one SQLite file, in write-ahead-log mode: the posts a system accepted and
/// had not finished when its process died are in the file at the next start, with their
/// ordering keys, deadlines, idempotency keys, schema versions and trace contexts.
///
/// ```swift
/// var events = StoredEvents()
/// try events.register(OrderPlaced.self, as: "order-placed")
/// let store = try SQLitePostStore(path: "orders.sqlite", events: events, durability: .processCrash)
/// let system = EventSystem(storage: .store(store))
/// try system.register(ordersDesk, as: "orders")
/// try await system.recoverStoredPosts()
/// ```
///
/// One connection writes and reads, on GRDB's serial queue (one writer): each
/// ``store(_:)`` is one transaction for its whole batch, so that posts arriving together share
/// one commit and, with ``Durability/powerLoss``, one disk flush. The same file can hold the
/// application's own tables: ``inbox`` runs a handler's writes and marks its event handled in one
/// transaction, and ``write(delivering:_:)`` posts inside the caller's transaction (an outbox).
///
/// The write-ahead log stays bounded: past ``walSizeLimit`` after a commit, the store
/// checkpoints and truncates it. SQLite cannot checkpoint past the snapshot of a reader on
/// another connection, so while such a reader holds its transaction the log grows; the store
/// never waits for it (a checkpoint that a reader blocks gives up at once and is tried again
/// after the next commit), and once the reader ends, the next commit brings the log back to
/// empty. Keep readers of this file on other connections short. The store's own reads run on
/// its writer connection, between writes, and never hold a snapshot across a commit.
///
/// The store is the only writer of its file: another connection writing to it makes the
/// store's transactions fail (`SQLITE_BUSY`) rather than wait.
public final class SQLitePostStore: EventSystem.PostStore {
    /// The file.
    public let path: String
    /// What an accepted post survives.
    public let durability: Durability
    /// How long a finished post's outcome and idempotency key, and an inbox entry, are kept.
    public let retention: Duration
    /// The size past which the write-ahead log is checkpointed and truncated, in bytes.
    public let walSizeLimit: Int
    /// The event types the store writes and reads.
    public let events: StoredEvents

    let database: DatabaseQueue
    let wallClock: WallClock
    /// When finished posts were last pruned, in nanoseconds since 1970.
    private let prunedAt = Atomic<Int64>(0)

    /// Opens (creating it if needed) the store in the file at `path`, bringing its schema to
    /// this version.
    ///
    /// - Parameters:
    ///   - path: The file; `-wal` and `-shm` files live beside it.
    ///   - events: The event types the store may write, by name.
    ///   - durability: What an accepted post survives: ``Durability/processCrash`` by default.
    ///   - retention: How long finished posts' outcomes, their idempotency keys and inbox entries
    ///     are kept (a day by default).
    ///   - walSizeLimit: The write-ahead log's size limit in bytes (64 MiB by default).
    ///   - clock: Measures the time that passes while the store is open (a stored post's time
    ///     left; a finished post's age): give it a test's manual clock. Deadlines are kept as wall
    ///     time, read once when the store opens, so that they survive a restart.
    /// - Throws: ``SQLitePostStoreError`` for a setting out of range or a file of a newer
    ///   schema; GRDB's `DatabaseError` if the file cannot be opened.
    public init(
        path: String, events: StoredEvents, durability: Durability = .processCrash,
        retention: Duration = .seconds(24 * 60 * 60), walSizeLimit: Int = 64 << 20,
        clock: any Clock<Duration> = ContinuousClock()
    ) throws {
        guard walSizeLimit > 0 else {
            throw SQLitePostStoreError.invalidSetting("walSizeLimit must be positive")
        }
        guard retention > .zero else {
            throw SQLitePostStoreError.invalidSetting("retention must be positive")
        }
        self.path = path
        self.durability = durability
        self.retention = retention
        self.walSizeLimit = walSizeLimit
        self.events = events
        self.wallClock = WallClock(clock: clock)
        var configuration = Configuration()
        configuration.label = "ResponderChainSQLite"
        // The store is its file's one writer: a lock it finds fails at once (and a checkpoint a
        // reader blocks gives up) instead of stalling every post behind it.
        configuration.busyMode = .immediateError
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = \(durability.synchronous)")
            try db.execute(sql: "PRAGMA journal_size_limit = \(walSizeLimit)")
        }
        database = try DatabaseQueue(path: path, configuration: configuration)
        try database.write { db in try PostSchema.migrate(db) }
    }

    /// Stores the posts in one transaction, or recognises them by idempotency key.
    ///
    /// - Throws: ``SQLitePostStoreError/unregisteredEvent(typeName:)`` for an event whose type
    ///   is not in ``events`` (nothing of the batch is written), or the database's error.
    public func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance] {
        let now = wallClock.nanoseconds
        var rows: [PostRow] = []
        rows.reserveCapacity(posts.count)
        let encoder = JSONEncoder()
        for post in posts { rows.append(try PostRow(post, events: events, encoder: encoder, now: now)) }
        let written = rows
        return try await transaction { db in
            try written.map { try $0.insert(in: db, now: now) }
        }
    }

    /// Records the outcomes in one transaction; a post already finished keeps its first outcome.
    ///
    /// With ``Durability/powerLoss``, this commit does not wait for the disk (it is written with
    /// `synchronous=NORMAL`): the next ``store(_:)`` commit's flush makes it durable with its own
    /// rows, so that a group of posts costs one disk flush, not two. A finish that a power loss
    /// takes before that flush only means its post is delivered again (delivery is at least
    /// once; the ``inbox`` keeps its effect once).
    public func finish(_ posts: [EventSystem.StoredPost.Finish]) async throws {
        let now = wallClock.nanoseconds
        try await transaction(waitsForTheDisk: false) { db in
            let statement = try db.cachedStatement(
                sql: """
                    UPDATE responder_post SET finished_at_ns = ?, outcome_kind = ?, outcome_description = ?,
                        dead_lettered = ?
                    WHERE id = ? AND finished_at_ns IS NULL
                    """)
            for finish in posts {
                try statement.execute(arguments: [
                    now, finish.outcome.kind.rawValue, finish.outcome.description, finish.deadLettered,
                    finish.id.columnBytes,
                ])
            }
        }
    }

    /// Records a failed attempt of an unfinished post and when its next may begin, in one
    /// transaction that does not wait for the disk (as ``finish(_:)``: a record a power loss
    /// takes only costs its count). A post finished or unknown is left as it is, and so is an
    /// attempt recorded already.
    ///
    /// - Throws: ``SQLitePostStoreError/malformedRow(sequence:reason:)`` when the post's
    ///   recorded attempts do not read (nothing is written), or the database's error.
    public func recordFailure(_ failure: EventSystem.StoredPost.Failure) async throws {
        let now = wallClock.nanoseconds
        try await transaction(waitsForTheDisk: false) { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql:
                        "SELECT sequence, failed_attempts FROM responder_post WHERE id = ? AND finished_at_ns IS NULL",
                    arguments: [failure.id.columnBytes])
            else { return }
            let sequence: Int64 = try row.decode(forColumn: "sequence")
            var attempts = try PostRow.failedAttempts(
                row.decode(forColumn: "failed_attempts"), sequence: sequence)
            guard attempts.append(failure, endedAt: now) else { return }
            try db.execute(
                sql: "UPDATE responder_post SET failed_attempts = ?, retry_at_ns = ? WHERE sequence = ?",
                arguments: [
                    attempts.json, now.addingReportingOverflow(failure.retryAfter.nanoseconds).partialValue,
                    sequence,
                ])
        }
    }

    /// The posts not finished, oldest first, with their time left now; rows this binary cannot
    /// read come back as `.undecodable` with their bytes.
    public func unfinished() async throws -> [EventSystem.StoredPost] {
        let rows = try await database.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT \(PostRow.columns) FROM responder_post WHERE finished_at_ns IS NULL ORDER BY sequence"
            ).map { try PostRow($0) }
        }
        let now = wallClock.nanoseconds
        return rows.map { $0.post(events: events, now: now) }
    }

    /// The outcome of `id`, if it finished and is still retained.
    public func outcome(of id: EventID) async throws -> EventSystem.StoredOutcome? {
        try await database.read { db in
            guard
                let row = try Row.fetchOne(
                    db,
                    sql:
                        "SELECT sequence, outcome_kind, outcome_description FROM responder_post WHERE id = ?",
                    arguments: [id.columnBytes])
            else { return nil }
            return try PostRow.outcome(row, sequence: row.decode(forColumn: "sequence"))
        }
    }

    /// Reads the file (the application's tables, say) on the store's connection.
    ///
    /// ```swift
    /// let count = try await store.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM shipment") }
    /// ```
    public func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        try await database.read(body)
    }

    /// Runs `body` in one immediate transaction on the writer, then keeps the log bounded and
    /// prunes what retention let go. With `waitsForTheDisk` false, a ``Durability/powerLoss``
    /// store commits it without flushing (`synchronous=NORMAL`, restored after): the next
    /// flushing commit makes it durable.
    func transaction<T: Sendable>(
        waitsForTheDisk: Bool = true, _ body: @escaping @Sendable (Database) throws -> T
    ) async throws -> T {
        let now = wallClock.nanoseconds
        let relaxed = !waitsForTheDisk && durability == .powerLoss
        return try await database.writeWithoutTransaction { [self] db in
            if relaxed { try db.execute(sql: "PRAGMA synchronous = \(Durability.processCrash.synchronous)") }
            defer {
                if relaxed { try? db.execute(sql: "PRAGMA synchronous = \(durability.synchronous)") }
            }
            try db.beginTransaction(.immediate)
            let result: T
            do {
                result = try body(db)
                try pruneIfDue(db, now: now)
                try db.commit()
            } catch {
                try? db.rollback()
                throw error
            }
            boundLog(db)
            return result
        }
    }

    /// Forgets finished posts and inbox entries older than ``retention``; looks at most once per
    /// tenth of it.
    private func pruneIfDue(_ db: Database, now: Int64) throws {
        let interval = (retention / 10).nanoseconds
        let last = prunedAt.load(ordering: .relaxed)
        guard now - last >= interval else { return }
        prunedAt.store(now, ordering: .relaxed)
        let horizon = now - retention.nanoseconds
        try db.execute(
            sql: "DELETE FROM responder_post WHERE finished_at_ns < ? AND dead_lettered = 0",
            arguments: [horizon])
        try db.execute(sql: "DELETE FROM responder_inbox WHERE handled_at_ns < ?", arguments: [horizon])
    }

    /// The write-ahead log's size in bytes now (0 when there is none).
    var logSize: Int {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
        return (attributes?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Checkpoints the log and truncates it to nothing once it is past ``walSizeLimit``. A reader
    /// on another connection holding an older snapshot makes the checkpoint give up at once
    /// (busy): the next commit tries again.
    private func boundLog(_ db: Database) {
        guard logSize > walSizeLimit else { return }
        // Busy is an answer here, not a failure: the log is truncated after a later commit.
        _ = try? Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
    }
}

internal import Foundation
public import Logging
internal import NIOCore
public import PostgresNIO
public import ResponderChain
public import ResponderChainStoredEvents
internal import Synchronization

/// An `EventSystem.SharedPostStore` in PostgreSQL: several processes post to one database and
/// consume it together. Each ordering key is held by one consumer at a time, under a lease with a
/// fencing token, so that a key's posts are delivered one at a time, in post order, wherever
/// they were posted.
///
/// ```swift
/// let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
/// var events = StoredEvents()
/// try events.register(OrderPlaced.self, as: "order-placed")
/// let store = try PostgresPostStore(client: client, events: events, logger: logger)
/// let system = EventSystem(storage: .shared(store))
/// try system.register(ordersDesk, as: "orders")
///
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { await client.run() }           // the connection pool
///     group.addTask { try await store.run() }        // heartbeats and the listener
///     try await store.migrate()                      // once per deployment is enough; idempotent
///     system.startConsuming()
///     …
/// }
/// ```
///
/// **Claims.** ``claim(limit:)`` leases, in one statement, keys that have unfinished posts and
/// that no live consumer holds (`FOR UPDATE SKIP LOCKED`: consumers claiming at once never wait
/// for each other, and never get the same key). Each claim of a key takes a new fencing token
/// from one database sequence, so a later claim always carries a larger token. Leases are
/// measured on the database's clock (`now()`), which every consumer shares.
///
/// **Heartbeats.** While ``run()`` runs, the store renews every lease it holds each third of
/// ``lease``, on its clock: a consumer that is only slow keeps its keys; a process that died
/// stops renewing, and after ``lease`` another consumer takes its keys (and delivers again what
/// was not finished: delivery is at least once).
///
/// **Fencing.** ``finish(_:)`` records a claimed post's outcome only if its lease is still its
/// key's current one, held by this consumer (checked in the update's own statement); otherwise
/// the finish is refused and counted (``refusedFinishes``). The ``inbox`` checks inside the
/// application's own transaction that the key's current lease is this consumer's (this claim or
/// a later one of its own), so that a consumer frozen past its lease cannot write an effect twice.
///
/// **Signals.** A listening connection (`LISTEN`) hears the posts and finishes of every
/// consumer; ``signals()`` passes them on. The listener checks its connection every ``lease``
/// third with a query that must answer in time; a connection that died (even silently) is
/// replaced, and a ``EventSystem/StoreSignal/posted`` follows each new `LISTEN`, so that the
/// consumer claims what it may have missed. The post office polls too.
///
/// **Why `run()`.** The store does background work (heartbeats, the listener) that must live
/// exactly as long as the service: like `PostgresClient`, it is a ServiceLifecycle-style
/// service whose ``run()`` you run beside the client's (it ends at graceful shutdown or
/// cancellation, and the ``signals()`` sequences finish then). Nothing runs behind your back,
/// nothing outlives the task that owns it, and a store whose ``run()`` is not running still
/// stores, claims and finishes (its leases then last ``lease`` at most).
///
/// **When PostgreSQL is in trouble.** Nothing of the store waits without a bound, and every
/// failure is typed, so that the post office rejects what it could not store (`notStored`),
/// the consumer claims again at its next poll, and a finish or release that failed leaves its
/// post to be delivered again (the ``inbox`` makes that harmless):
/// - While the server is down or restarting, an operation throws
///   ``PostgresPostStoreError/unreachable(operation:underlying:)``; the client's pool
///   reconnects and the listener listens again once it is back, with no call from you.
/// - An operation waits at most ``connectionRequestTimeout`` for a connection of the pool (the
///   application may hold them all), then throws
///   ``PostgresPostStoreError/connectionUnavailable(operation:waited:)``, having run nothing.
/// - A transaction of the store waits at most ``lockTimeout`` for a lock another transaction
///   holds (a key's row held `FOR UPDATE` by a transaction left open, say), then throws
///   ``PostgresPostStoreError/lockTimeout(operation:underlying:)``. Claims and heartbeats skip
///   locked rows instead of waiting: the other keys keep moving.
///
/// ``PostgresPostStoreError/isTransient`` says which errors are worth trying again.
///
/// **Rolling deploys.** While old and new binaries consume one database, a post written by a
/// newer binary may hold a schema version of its event that this binary does not read. By
/// default (``NewerSchemaVersions/leaveForNewerReader``) this consumer does not claim its key
/// at all, so that a consumer of the newer binary, which reads it (and every older row, through
/// its upcasts), takes the key with its order intact; the gauge
/// `responderchain_store_posts_awaiting_newer_reader` counts such posts. Once no newer reader
/// is expected (a rollback that is final), ``NewerSchemaVersions/deadLetter`` claims them, and
/// each ends failed, undecodable, in the dead letters.
public final class PostgresPostStore: EventSystem.SharedPostStore {
    /// What this consumer does with a post whose event was stored with a schema version newer
    /// than its ``events`` read.
    public enum NewerSchemaVersions: Sendable, Hashable {
        /// Leaves the post's key unclaimed, for a consumer of a binary that reads it (the
        /// default, during a rolling deploy): its posts wait, in order, and are counted by the
        /// gauge `responderchain_store_posts_awaiting_newer_reader`.
        case leaveForNewerReader
        /// Claims the key like any other: the post ends failed (undecodable) and goes to the
        /// dead letters. For when no binary that reads it will run again.
        case deadLetter
    }

    /// The client the store runs its queries on (the application runs it).
    public let client: PostgresClient
    /// The event types the store writes and reads.
    public let events: StoredEvents
    /// This consumer's name, recorded as the owner of the keys it leases.
    public let consumer: String
    /// How long a claimed key stays leased without a heartbeat.
    public let lease: Duration
    /// How long a finished post's outcome and idempotency key, and an inbox entry, are kept.
    public let retention: Duration
    /// Where the store logs (refused finishes, a listener replaced, failed heartbeats).
    public let logger: Logger
    /// What the store reports to swift-metrics (`nil`: nothing).
    public let metrics: PostgresStoreMetrics?
    /// How long a transaction of the store waits for a lock that another transaction holds
    /// (a key's row, a table) before it ends with
    /// ``PostgresPostStoreError/lockTimeout(operation:underlying:)``.
    public let lockTimeout: Duration
    /// How long an operation of the store waits for a connection of the client's pool before it
    /// ends with ``PostgresPostStoreError/connectionUnavailable(operation:waited:)``.
    public let connectionRequestTimeout: Duration
    /// What this consumer does with a post of a newer schema version than it reads.
    public let newerSchemaVersions: NewerSchemaVersions
    /// The registered names, and the newest schema version read of each (the same order): the
    /// claim's and the gauge's test of a post too new for this consumer.
    let readNames: [String]
    let readNewest: [Int]

    /// The notification channel: posts stored (`p`) and posts finished (`f` and their
    /// identifiers).
    static let channel = "responderchain"

    let clock: any Clock<Duration>
    /// The time since the store was made, on its clock.
    let elapsed: @Sendable () -> Duration
    let state = Mutex(StoreState())
    /// Ends the operations running on a connection that closes.
    let closeWatch = ConnectionCloseWatch()
    private let refused = Atomic<Int>(0)
    let recorder: StoreMetricsRecorder?

    /// A store on `client`'s database. It runs no query until it is used: call ``migrate()``
    /// before the first use (and when a new version of this package is deployed), and run
    /// ``run()`` beside `client.run()`.
    ///
    /// - Parameters:
    ///   - client: The connection pool; the store holds one of its connections for listening
    ///     while ``run()`` runs.
    ///   - events: The event types the store may write, by name.
    ///   - consumer: This consumer's name, unique among the consumers of the database (the
    ///     host, the process and a random part by default).
    ///   - lease: How long a claimed key stays this consumer's without a heartbeat: the time
    ///     another consumer waits before taking over the keys of a process that died (30
    ///     seconds by default).
    ///   - retention: How long finished posts' outcomes, their idempotency keys and inbox
    ///     entries are kept (a day by default).
    ///   - lockTimeout: How long a transaction of the store waits for a lock another transaction
    ///     holds (5 seconds by default): a finish, a release, an inbox write or a prune behind a
    ///     foreign transaction that holds a key's row ends typed, and is tried again later,
    ///     instead of hanging the consumer. Claims and heartbeats skip locked rows and never wait.
    ///   - connectionRequestTimeout: How long an operation waits for a connection of the
    ///     client's pool (10 seconds by default): while the application holds every connection,
    ///     or the server cannot be reached, operations end typed instead of waiting silently.
    ///   - clock: Measures time in the process: the heartbeats' and the listener's checks'
    ///     intervals, and a stored post's time left (give it a test's manual clock). Leases are
    ///     measured on the database's clock.
    ///   - logger: Where the store logs.
    ///   - metrics: The counters and gauges the store reports (see ``PostgresStoreMetrics``), to
    ///     the bootstrapped `MetricsSystem.factory` by default; `nil` for none.
    ///   - newerSchemaVersions: What this consumer does with a post whose event's schema
    ///     version is newer than `events` read: leave its key for a newer binary (the default),
    ///     or dead-letter it (see ``NewerSchemaVersions``).
    /// - Throws: ``PostgresPostStoreError/invalidSetting(_:)`` for a lease or retention that is
    ///   not positive, a lock timeout under a millisecond, a connection request timeout that is
    ///   not positive, or an empty consumer name.
    public init(
        client: PostgresClient, events: StoredEvents,
        consumer: String = PostgresPostStore.defaultConsumerName(),
        lease: Duration = .seconds(30), retention: Duration = .seconds(24 * 60 * 60),
        lockTimeout: Duration = .seconds(5), connectionRequestTimeout: Duration = .seconds(10),
        clock: any Clock<Duration> = ContinuousClock(),
        logger: Logger = Logger(label: "ResponderChainPostgres"),
        metrics: PostgresStoreMetrics? = PostgresStoreMetrics(),
        newerSchemaVersions: NewerSchemaVersions = .leaveForNewerReader
    ) throws(PostgresPostStoreError) {
        guard lease >= .milliseconds(3) else { throw .invalidSetting("lease must be at least 3 ms") }
        guard retention > .zero else { throw .invalidSetting("retention must be positive") }
        guard !consumer.isEmpty else { throw .invalidSetting("consumer must not be empty") }
        guard lockTimeout >= .milliseconds(1) else {
            throw .invalidSetting("lockTimeout must be at least 1 ms")
        }
        guard connectionRequestTimeout > .zero else {
            throw .invalidSetting("connectionRequestTimeout must be positive")
        }
        self.client = client
        self.events = events
        self.consumer = consumer
        self.lease = lease
        self.retention = retention
        self.lockTimeout = lockTimeout
        self.connectionRequestTimeout = connectionRequestTimeout
        self.clock = clock
        self.elapsed = Self.elapsedTime(on: clock)
        self.logger = logger
        self.metrics = metrics
        self.recorder = metrics.map(StoreMetricsRecorder.init)
        self.newerSchemaVersions = newerSchemaVersions
        self.readNames = events.names
        self.readNewest = events.names.map { events.versions(of: $0)?.upperBound ?? 1 }
    }

    private static func elapsedTime(on clock: some Clock<Duration>) -> @Sendable () -> Duration {
        let origin = clock.now
        return { origin.duration(to: clock.now) }
    }

    /// `host:pid:random`, a consumer name no other process has.
    public static func defaultConsumerName() -> String {
        "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier):\(UInt32.random(in: 0...UInt32.max))"
    }

    /// How many finishes this store refused because their lease was no longer their key's
    /// current one (another consumer had claimed the key): each such post is delivered again by
    /// the key's new owner.
    public var refusedFinishes: Int { refused.load(ordering: .relaxed) }

    /// Creates or upgrades the store's tables to this version's schema, and returns the
    /// version the database had (0 for a new one). Running it again, or in several processes at
    /// once, is safe: they take turns (each waits up to a minute for the others, whatever
    /// ``lockTimeout`` says), and a database already there is left alone.
    ///
    /// - Throws: ``PostgresPostStoreError/newerSchema(found:known:)`` if a newer version of this
    ///   package migrated the database; nothing is changed then;
    ///   ``PostgresPostStoreError/lockTimeout(operation:underlying:)`` if another process's
    ///   migration held the database for more than a minute.
    @discardableResult
    public func migrate() async throws -> Int {
        try await transaction("migrate the schema") { connection in
            try await PostgresSchema.migrate(connection, logger: self.logger)
        }
    }

    /// The schema version this binary writes.
    public static var schemaVersion: Int { PostgresSchema.version }

    // MARK: PostStore

    /// Stores the posts in one statement (one multi-row insert, in its own transaction), or
    /// recognises them by idempotency key, and notifies the listening consumers when it commits.
    ///
    /// - Throws: ``PostgresPostStoreError/unregisteredEvent(typeName:)`` for an event whose type
    ///   is not in ``events`` (nothing of the batch is written), or what the database did.
    public func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance] {
        guard !posts.isEmpty else { return [] }
        let rows = try await rows(for: posts)
        return try await onConnection("store \(posts.count) posts") { connection in
            try await Self.insert(rows, on: connection, logger: self.logger)
        }
    }

    /// The rows for `posts`, their deadlines in wall time now.
    func rows(for posts: [EventSystem.StoredPost]) async throws -> [PostRow] {
        let now = try await wallNow()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var rows: [PostRow] = []
        rows.reserveCapacity(posts.count)
        for post in posts { rows.append(try PostRow(post, events: events, encoder: encoder, now: now)) }
        return rows
    }

    /// Records a failed attempt of an unfinished post and when its next may begin (on the
    /// store's clock), in one statement: under a lease, only while it is its key's current one
    /// and held by this consumer (refused and counted in ``refusedFinishes`` otherwise). A post
    /// finished or unknown is left as it is, and so is an attempt recorded already.
    public func recordFailure(_ failure: EventSystem.StoredPost.Failure) async throws {
        let now = try await wallNow()
        let consumer = self.consumer
        let (epoch, sequence) = failure.id.columns
        let retryAt = now.addingReportingOverflow(failure.retryAfter.microseconds).partialValue
        let leased = failure.lease != nil
        let key = failure.lease?.key.name ?? ""
        let token = failure.lease?.token ?? 0
        let current = try await transaction("record a failed attempt") { connection in
            var current: Int64?
            for try await (token, ) in try await connection.query(
                """
                WITH fenced AS (
                    SELECT key, token FROM responderchain_keys WHERE key = \(key) AND owner = \(consumer) FOR SHARE
                ), recorded AS (
                    UPDATE responderchain_posts p
                    SET failed_attempts = coalesce(p.failed_attempts, '[]'::jsonb) || jsonb_build_array(jsonb_build_object(
                            'number', \(failure.number)::bigint, 'kind', \(failure.outcome.kind.rawValue)::text,
                            'description', \(failure.outcome.description)::text, 'endedAt', \(now)::bigint)),
                        retry_at_us = \(retryAt)
                    WHERE p.id_epoch = \(epoch) AND p.id_sequence = \(sequence) AND p.finished_at IS NULL
                        AND NOT coalesce(p.failed_attempts, '[]'::jsonb)
                            @> jsonb_build_array(jsonb_build_object('number', \(failure.number)::bigint))
                        AND (NOT \(leased) OR EXISTS (SELECT 1 FROM fenced WHERE fenced.token = \(token)))
                    RETURNING 1
                )
                SELECT coalesce((SELECT token FROM fenced), -1) FROM (SELECT count(*) FROM recorded) AS done
                """, logger: self.logger
            ).decode((Int64,).self) {
                current = token
            }
            return current
        }
        if let lease = failure.lease, current != lease.token {
            refused.add(1, ordering: .relaxed)
            recorder?.recordRefused(1)
            logger.warning(
                "refused a failed attempt's record under a lease that is no longer current",
                metadata: ["post": "\(failure.id)", "lease": "\(lease)"])
        }
    }

    /// Records the outcomes in one statement (in a transaction that waits at most
    /// ``lockTimeout`` for its keys' rows); a post
    /// already finished keeps its first outcome. A finish under a lease that is no longer its
    /// key's current one held by this consumer is not recorded: it is counted in
    /// ``refusedFinishes`` and logged. A finish without a lease (a post recovered or delivered
    /// without a claim) is recorded as it is. The listening consumers hear which posts finished
    /// when the statement commits.
    public func finish(_ posts: [EventSystem.StoredPost.Finish]) async throws {
        guard !posts.isEmpty else { return }
        let consumer = self.consumer
        let keys = Array(Set(posts.compactMap { $0.lease?.key.name })).sorted()
        let epochs = posts.map(\.id.columns.epoch)
        let sequences = posts.map(\.id.columns.sequence)
        let kinds = posts.map(\.outcome.kind.rawValue)
        let descriptions = posts.map(\.outcome.description)
        let leaseKeys = posts.map { $0.lease?.key.name ?? "" }
        let leaseTokens = posts.map { $0.lease?.token ?? 0 }
        let leased = posts.map { $0.lease != nil }
        let deadLettered = posts.map(\.deadLettered)
        let now = try await wallNow()
        let current = try await transaction("finish \(posts.count) posts") { connection in
            // One statement, in a transaction that waits at most `lockTimeout` for a lock.
            // `fenced` holds the keys' rows FOR SHARE until the statement commits: a claim skips
            // them, so the check stays true while the posts are marked. Every statement of the
            // store that locks several keys locks them in key order (no deadlock between a
            // finish, a heartbeat and a release). The identifiers are written unsigned, as
            // ``EventID/notificationText`` writes them, 150 to a notification (a payload must
            // stay under 8,000 bytes).
            var current: [String: Int64] = [:]
            for try await (isKey, key, token) in try await connection.query(
                """
                WITH fenced AS (
                    SELECT key, token FROM responderchain_keys WHERE key = ANY(\(keys)) AND owner = \(consumer)
                    ORDER BY key FOR SHARE
                ), finishes AS (
                    SELECT * FROM unnest(\(epochs)::bigint[], \(sequences)::bigint[], \(kinds)::text[],
                        \(descriptions)::text[], \(leaseKeys)::text[], \(leaseTokens)::bigint[], \(leased)::boolean[],
                        \(deadLettered)::boolean[])
                        AS f(epoch, sequence, kind, description, key, token, leased, dead)
                ), done AS (
                    UPDATE responderchain_posts p SET finished_at = now(), outcome_kind = f.kind,
                        outcome_description = f.description,
                        dead_lettered_at_us = CASE WHEN f.dead THEN \(now)::bigint END
                    FROM finishes f
                    WHERE p.id_epoch = f.epoch AND p.id_sequence = f.sequence AND p.finished_at IS NULL
                        AND (NOT f.leased OR EXISTS (SELECT 1 FROM fenced WHERE fenced.key = f.key AND fenced.token = f.token))
                    RETURNING p.id_epoch, p.id_sequence
                ), notified AS (
                    SELECT pg_notify(\(Self.channel), 'f' || string_agg(d.id, ',')) AS sent
                    FROM (SELECT (CASE WHEN id_epoch < 0 THEN id_epoch::numeric + 18446744073709551616
                                ELSE id_epoch::numeric END)::text || '.'
                            || (CASE WHEN id_sequence < 0 THEN id_sequence::numeric + 18446744073709551616
                                ELSE id_sequence::numeric END)::text AS id,
                            (row_number() OVER () - 1) / 150 AS chunk
                        FROM done) AS d
                    GROUP BY d.chunk
                )
                SELECT true, key, token FROM fenced
                UNION ALL SELECT false, '', count(*) FROM notified
                """, logger: self.logger
            ).decode((Bool, String, Int64).self) where isKey {
                current[key] = token
            }
            return current
        }
        let stale = posts.filter { finish in
            guard let lease = finish.lease else { return false }
            return current[lease.key.name] != lease.token
        }
        if !stale.isEmpty {
            refused.add(stale.count, ordering: .relaxed)
            recorder?.recordRefused(stale.count)
            logger.warning(
                "refused finishes under leases that are no longer current: another consumer owns their keys",
                metadata: [
                    "posts": "\(stale.map(\.id))",
                    "leases": "\(Set(stale.compactMap(\.lease)).map(\.description).sorted())",
                ])
        }
        try await pruneIfDue()
    }

    /// Every post not finished, oldest first, whatever its lease, with its time left now; rows
    /// this binary cannot read come back as `.undecodable` with their bytes.
    public func unfinished() async throws -> [EventSystem.StoredPost] {
        let rows = try await run("read the unfinished posts") {
            try await self.withConnection("read the unfinished posts") { connection in
                var rows: [PostRow] = []
                for try await row in try await connection.query(
                    "SELECT \(unescaped: PostRow.columns) FROM responderchain_posts WHERE finished_at IS NULL ORDER BY seq",
                    logger: self.logger)
                {
                    rows.append(try PostRow(row))
                }
                return rows
            }
        }
        let now = try await wallNow()
        return rows.map { $0.post(events: events, now: now) }
    }

    /// The outcome of `id`, if it finished and is still retained.
    public func outcome(of id: EventID) async throws -> EventSystem.StoredOutcome? {
        let (epoch, sequence) = id.columns
        let operation = "read the outcome of \(id)"
        return try await run(operation) {
            try await self.withConnection(operation) { connection in
                var outcome: EventSystem.StoredOutcome?
                for try await (seq, kind, description) in try await connection.query(
                    """
                    SELECT seq, outcome_kind, outcome_description FROM responderchain_posts
                    WHERE id_epoch = \(epoch) AND id_sequence = \(sequence)
                    """, logger: self.logger
                ).decode((Int64, String?, String?).self) {
                    outcome = try Self.outcome(kind: kind, description: description, seq: seq)
                }
                return outcome
            }
        }
    }

    /// The outcome in a row's `outcome_kind` and `outcome_description`, if it has one.
    static func outcome(kind: String?, description: String?, seq: Int64) throws(PostgresPostStoreError)
        -> EventSystem.StoredOutcome?
    {
        guard let kind else { return nil }
        guard let known = Outcome.Kind(rawValue: kind) else {
            throw .malformedRow(
                seq: seq, column: "outcome_kind",
                reason: "\"\(kind)\" is not an outcome kind this binary knows")
        }
        return EventSystem.StoredOutcome(kind: known, description: description ?? "")
    }

    // MARK: Queries

    /// Inserts `rows` in their order, in one statement, and answers for each: stored, or a
    /// duplicate of the retained post holding its idempotency key. Upserts their keys, and
    /// notifies the listening consumers if a post was written (when the transaction commits).
    static func insert(
        _ rows: [PostRow], on connection: PostgresConnection, logger: Logger
    ) async throws -> [EventSystem.StoredPost.Acceptance] {
        guard !rows.isEmpty else { return [] }
        // No row lock on an existing key (DO NOTHING): storing never waits for a claim. One
        // statement: the keys, the posts, and a notification if any post was written (sent when
        // the statement's transaction commits).
        let keys = Array(Set(rows.map(\.key))).sorted()
        let epochs = rows.map(\.id.columns.epoch)
        let sequences = rows.map(\.id.columns.sequence)
        let orderingKeys = rows.map(\.key)
        let entries = rows.map(\.entry)
        let typeNames = rows.map(\.typeName)
        let versions = rows.map(\.schemaVersion)
        let payloads = rows.map { ByteBuffer(bytes: $0.payload) }
        let idempotencyKeys = rows.map { $0.idempotencyKey ?? "" }
        let hasIdempotencyKey = rows.map { $0.idempotencyKey != nil }
        let deadlines = rows.map { $0.deadline ?? 0 }
        let hasDeadline = rows.map { $0.deadline != nil }
        let traces = rows.map { $0.traceContext ?? "" }
        let hasTrace = rows.map { $0.traceContext != nil }
        var stored = Set<EventID>()
        for try await (isPost, epoch, sequence) in try await connection.query(
            """
            WITH new_keys AS (
                INSERT INTO responderchain_keys (key) SELECT unnest(\(keys)::text[]) ON CONFLICT (key) DO NOTHING
            ), inserted AS (
                INSERT INTO responderchain_posts (id_epoch, id_sequence, ordering_key, entry, type_name, schema_version,
                    payload, idempotency_key, deadline, trace_context)
                SELECT r.epoch, r.sequence, r.key, r.entry, r.type_name, r.version::integer, r.payload,
                    CASE WHEN r.has_idempotency_key THEN r.idempotency_key END,
                    CASE WHEN r.has_deadline THEN 'epoch'::timestamptz + r.deadline * interval '1 microsecond' END,
                    CASE WHEN r.has_trace THEN r.trace::jsonb END
                FROM unnest(\(epochs)::bigint[], \(sequences)::bigint[], \(orderingKeys)::text[], \(entries)::text[],
                    \(typeNames)::text[], \(versions)::bigint[], \(payloads)::bytea[], \(idempotencyKeys)::text[],
                    \(hasIdempotencyKey)::boolean[], \(deadlines)::bigint[], \(hasDeadline)::boolean[],
                    \(traces)::text[], \(hasTrace)::boolean[])
                    WITH ORDINALITY AS r(epoch, sequence, key, entry, type_name, version, payload, idempotency_key,
                        has_idempotency_key, deadline, has_deadline, trace, has_trace, position)
                ORDER BY r.position
                ON CONFLICT (idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
                RETURNING id_epoch, id_sequence
            ), notified AS (
                SELECT pg_notify(\(channel), 'p') FROM (SELECT 1 FROM inserted LIMIT 1) AS any_inserted
            )
            SELECT true, id_epoch, id_sequence FROM inserted
            UNION ALL SELECT false, count(*), 0 FROM notified
            """, logger: logger
        ).decode((Bool, Int64, Int64).self) where isPost {
            stored.insert(EventID(epoch: UInt64(bitPattern: epoch), sequence: UInt64(bitPattern: sequence)))
        }
        guard stored.count < rows.count else { return Array(repeating: .stored, count: rows.count) }
        // Some idempotency keys were held: find the posts holding them.
        let held = rows.filter { !stored.contains($0.id) }.compactMap(\.idempotencyKey)
        var holders: [String: EventSystem.StoredPost.Acceptance] = [:]
        for try await (key, seq, epoch, sequence, kind, description) in try await connection.query(
            """
            SELECT idempotency_key, seq, id_epoch, id_sequence, outcome_kind, outcome_description
            FROM responderchain_posts WHERE idempotency_key = ANY(\(held))
            """, logger: logger
        ).decode((String, Int64, Int64, Int64, String?, String?).self) {
            holders[key] = .duplicate(
                of: EventID(epoch: UInt64(bitPattern: epoch), sequence: UInt64(bitPattern: sequence)),
                outcome: try outcome(kind: kind, description: description, seq: seq))
        }
        return try rows.map { row throws(PostgresPostStoreError) in
            if stored.contains(row.id) { return .stored }
            guard let key = row.idempotencyKey, let holder = holders[key] else {
                throw .malformedRow(
                    seq: 0, column: "idempotency_key",
                    reason: "post \(row.id) was not written, and no retained post holds its idempotency key")
            }
            return holder
        }
    }

    /// Forgets finished posts and inbox entries older than ``retention``, and keys that have
    /// no unfinished post and no live lease; looks at most once per tenth of ``retention`` on
    /// the store's clock.
    func pruneIfDue() async throws {
        let now = elapsed()
        let due = state.withLock { state in
            guard state.prunedAt.map({ now - $0 >= retention / 10 }) ?? true else { return false }
            state.prunedAt = now
            return true
        }
        guard due else { return }
        let retained = retention.microseconds
        try await transaction("prune finished posts") { connection in
            try await connection.query(
                """
                DELETE FROM responderchain_posts
                WHERE finished_at < now() - \(retained) * interval '1 microsecond' AND dead_lettered_at_us IS NULL
                """, logger: self.logger)
            try await connection.query(
                "DELETE FROM responderchain_inbox WHERE handled_at < now() - \(retained) * interval '1 microsecond'",
                logger: self.logger)
            // A store inserting a key row holds the table in ROW EXCLUSIVE mode until it
            // commits: this lock waits for it and holds new ones back, so that a key is never
            // deleted under posts that are being stored.
            try await connection.query(
                "LOCK TABLE responderchain_keys IN SHARE ROW EXCLUSIVE MODE", logger: self.logger)
            try await connection.query(
                """
                DELETE FROM responderchain_keys k WHERE (k.owner IS NULL OR k.lease_until < now())
                    AND NOT EXISTS (SELECT 1 FROM responderchain_posts p
                        WHERE p.ordering_key = k.key AND p.finished_at IS NULL)
                """, logger: self.logger)
        }
    }

    /// Runs `body`, its errors named by `operation`.
    func run<T: Sendable>(_ operation: String, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw PostgresPostStoreError.wrapping(error, operation: operation)
        }
    }

    /// Wall time now in microseconds since 1970: the database's clock read once, at the store's
    /// first need, plus the time since then on the store's clock (so that a test's manual clock
    /// moves a stored post's time left, and every consumer's deadlines agree with the
    /// database's).
    func wallNow() async throws -> Int64 {
        if let origin = state.withLock({ $0.wallOrigin }) { return origin + elapsed().microseconds }
        let read = try await run("read the database's clock") {
            try await self.withConnection("read the database's clock") { connection in
                var micros: Int64 = 0
                for try await (now, ) in try await connection.query(
                    "SELECT (extract(epoch FROM clock_timestamp()) * 1000000)::bigint", logger: self.logger
                ).decode((Int64,).self) {
                    micros = now
                }
                return micros
            }
        }
        let origin = state.withLock { state in
            if let origin = state.wallOrigin { return origin }
            let origin = read - elapsed().microseconds
            state.wallOrigin = origin
            return origin
        }
        return origin + elapsed().microseconds
    }
}

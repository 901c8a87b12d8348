internal import Logging
internal import PostgresNIO

/// The tables of a ``PostgresPostStore``, versioned in `responderchain_schema_version`: version
/// *n* is the first *n* migrations, each run once, in one transaction with the row recording it.
///
/// Append a migration to change the schema; never edit one that shipped. Tables are prefixed
/// `responderchain_` so that the application's own tables (written through the inbox and the
/// outbox) share the database.
enum PostgresSchema {
    /// Each migration's statements (the extended protocol runs one statement per query).
    static let migrations: [[String]] = [
        // 1: posts, the keys consumers lease, the fencing tokens, and the inbox.
        [
            "CREATE SEQUENCE responderchain_lease_token",
            """
            CREATE TABLE responderchain_posts (
                seq bigserial PRIMARY KEY,
                id_epoch bigint NOT NULL,
                id_sequence bigint NOT NULL,
                ordering_key text NOT NULL,
                entry text NOT NULL,
                type_name text NOT NULL,
                schema_version integer NOT NULL,
                payload bytea NOT NULL,
                idempotency_key text UNIQUE,
                deadline timestamptz,
                trace_context jsonb,
                stored_at timestamptz NOT NULL DEFAULT now(),
                finished_at timestamptz,
                outcome_kind text,
                outcome_description text,
                UNIQUE (id_epoch, id_sequence)
            )
            """,
            """
            CREATE INDEX responderchain_posts_unfinished_by_key ON responderchain_posts (ordering_key, seq)
                WHERE finished_at IS NULL
            """,
            "CREATE INDEX responderchain_posts_unfinished ON responderchain_posts (seq) WHERE finished_at IS NULL",
            """
            CREATE INDEX responderchain_posts_finished ON responderchain_posts (finished_at)
                WHERE finished_at IS NOT NULL
            """,
            """
            CREATE TABLE responderchain_keys (
                key text PRIMARY KEY,
                owner text,
                lease_until timestamptz,
                token bigint NOT NULL DEFAULT 0
            )
            """,
            """
            CREATE TABLE responderchain_inbox (
                id_epoch bigint NOT NULL,
                id_sequence bigint NOT NULL,
                handled_at timestamptz NOT NULL DEFAULT now(),
                PRIMARY KEY (id_epoch, id_sequence)
            )
            """,
            "CREATE INDEX responderchain_inbox_handled ON responderchain_inbox (handled_at)",
        ],
        // 2: how many times each post was claimed (a claim of a post claimed before is a
        // redelivery). `IF NOT EXISTS`: a database where the column is there already is left
        // alone.
        [
            "ALTER TABLE responderchain_posts ADD COLUMN IF NOT EXISTS claims integer NOT NULL DEFAULT 0"
        ],
        // 3: a claim no longer writes each post it claims: each key keeps the highest `seq`
        // claimed under it (a key's posts are claimed in order, so a post at or below its key's
        // mark was claimed before, and claiming it again is a redelivery). The marks come from
        // the posts' claim counts, which go. The idempotency keys' unique index holds only the
        // posts that have one (most have none: each insert and finish wrote an entry for
        // nothing).
        [
            """
            ALTER TABLE responderchain_keys ADD COLUMN IF NOT EXISTS claimed_through bigint NOT NULL
                DEFAULT 0
            """,
            """
            UPDATE responderchain_keys k SET claimed_through = greatest(k.claimed_through, c.through)
            FROM (SELECT ordering_key, max(seq) AS through FROM responderchain_posts WHERE claims > 0
                GROUP BY ordering_key) c
            WHERE c.ordering_key = k.key
            """,
            "ALTER TABLE responderchain_posts DROP COLUMN claims",
            """
            CREATE UNIQUE INDEX IF NOT EXISTS responderchain_posts_idempotency_key_set
                ON responderchain_posts (idempotency_key) WHERE idempotency_key IS NOT NULL
            """,
            """
            ALTER TABLE responderchain_posts DROP CONSTRAINT IF EXISTS responderchain_posts_idempotency_key_key
            """,
        ],
        // 4: a post's failed attempts (a JSON array) and when its next attempt may begin
        // (microseconds since 1970, on the store's clock), kept for retries across processes.
        [
            "ALTER TABLE responderchain_posts ADD COLUMN IF NOT EXISTS failed_attempts jsonb",
            "ALTER TABLE responderchain_posts ADD COLUMN IF NOT EXISTS retry_at_us bigint",
        ],
        // 5: dead letters: when a finished post went to the dead letters (on the store's clock;
        // `NULL` for one that did not), kept past retention until redriven or purged.
        [
            "ALTER TABLE responderchain_posts ADD COLUMN IF NOT EXISTS dead_lettered_at_us bigint",
            """
            CREATE INDEX IF NOT EXISTS responderchain_posts_dead_letters ON responderchain_posts (seq)
                WHERE dead_lettered_at_us IS NOT NULL
            """,
        ],
        // 6: unfinished posts by event type and schema version: a claim finds the keys holding a
        // post of a version newer than its consumer reads (a rolling deploy) in one probe per type.
        [
            """
            CREATE INDEX IF NOT EXISTS responderchain_posts_unfinished_versions
                ON responderchain_posts (type_name, schema_version) WHERE finished_at IS NULL
            """
        ],
    ]

    /// The version this binary writes.
    static var version: Int { migrations.count }

    /// Brings the database to ``version``, or finds it there; returns the version it found.
    /// Several processes migrating at once take turns (a transaction-scoped advisory lock).
    ///
    /// - Throws: ``PostgresPostStoreError/newerSchema(found:known:)`` for a database of a newer
    ///   binary.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        // Waiting for another process's migration is the point: the store's lock timeout (meant
        // for a row a foreign transaction holds) does not bound it, a minute does. The rows are
        // read to their end, so that a failure to lock surfaces here and not as the next
        // statement's "transaction is aborted".
        try await connection.query("SELECT set_config('lock_timeout', '60000', true)", logger: logger)
        for try await _ in try await connection.query(
            "SELECT pg_advisory_xact_lock(hashtext('responderchain_schema_version'))", logger: logger)
        {}
        try await connection.query(
            """
            CREATE TABLE IF NOT EXISTS responderchain_schema_version (
                version integer PRIMARY KEY,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """, logger: logger)
        var found = 0
        for try await (version, ) in try await connection.query(
            "SELECT coalesce(max(version), 0)::bigint FROM responderchain_schema_version", logger: logger
        ).decode((Int.self,)) {
            found = version
        }
        guard found <= version else { throw PostgresPostStoreError.newerSchema(found: found, known: version) }
        for next in found..<version {
            for statement in migrations[next] {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
                "INSERT INTO responderchain_schema_version (version) VALUES (\(next + 1))", logger: logger)
        }
        return found
    }
}

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
    ]

    /// The version this binary writes.
    static var version: Int { migrations.count }

    /// Brings the database to ``version``, or finds it there; returns the version it found.
    /// Several processes migrating at once take turns (a transaction-scoped advisory lock).
    ///
    /// - Throws: ``PostgresPostStoreError/newerSchema(found:known:)`` for a database of a newer
    ///   binary.
    static func migrate(_ connection: PostgresConnection, logger: Logger) async throws -> Int {
        try await connection.query(
            "SELECT pg_advisory_xact_lock(hashtext('responderchain_schema_version'))", logger: logger)
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

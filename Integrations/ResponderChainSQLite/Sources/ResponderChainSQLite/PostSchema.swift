internal import GRDB

/// The tables of an ``SQLitePostStore``'s file, versioned by `PRAGMA user_version`: version *n*
/// is the first *n* migrations, each run once, in one transaction with the version it reaches.
///
/// Append a migration to change the schema; never edit one that shipped. Tables are prefixed
/// `responder_` so that the user's own tables (written through the inbox and outbox) can share
/// the file.
enum PostSchema {
    static let migrations: [String] = [
        // 1: posts, and the inbox of handled events.
        """
        CREATE TABLE responder_post (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            id BLOB NOT NULL UNIQUE,
            ordering_key TEXT NOT NULL,
            entry TEXT NOT NULL,
            type_name TEXT NOT NULL,
            schema_version INTEGER NOT NULL,
            payload BLOB NOT NULL,
            idempotency_key TEXT UNIQUE,
            deadline_ns INTEGER,
            trace_context TEXT,
            stored_at_ns INTEGER NOT NULL,
            finished_at_ns INTEGER,
            outcome_kind TEXT,
            outcome_description TEXT
        );
        CREATE INDEX responder_post_unfinished ON responder_post(sequence) WHERE finished_at_ns IS NULL;
        CREATE INDEX responder_post_finished ON responder_post(finished_at_ns) WHERE finished_at_ns IS NOT NULL;
        CREATE TABLE responder_inbox (
            event_id BLOB PRIMARY KEY,
            handled_at_ns INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX responder_inbox_handled ON responder_inbox(handled_at_ns);
        """,
        // 2: a post's failed attempts (a JSON array) and when its next attempt may begin.
        """
        ALTER TABLE responder_post ADD COLUMN failed_attempts TEXT;
        ALTER TABLE responder_post ADD COLUMN retry_at_ns INTEGER;
        """,
        // 3: dead letters: finished posts that went to the dead letters, kept past retention
        // until redriven or purged.
        """
        ALTER TABLE responder_post ADD COLUMN dead_lettered INTEGER NOT NULL DEFAULT 0;
        CREATE INDEX responder_post_dead_letters ON responder_post(sequence) WHERE dead_lettered = 1;
        """,
    ]

    /// The version this binary writes.
    static var version: Int { migrations.count }

    /// Brings the file to ``version``; does nothing to a file already there.
    ///
    /// - Throws: ``SQLitePostStoreError/newerSchema(found:known:)`` for a file of a newer binary.
    static func migrate(_ db: Database) throws {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard found <= version else { throw SQLitePostStoreError.newerSchema(found: found, known: version) }
        for next in found..<version {
            try db.execute(sql: migrations[next])
            try db.execute(sql: "PRAGMA user_version = \(next + 1)")
        }
    }
}

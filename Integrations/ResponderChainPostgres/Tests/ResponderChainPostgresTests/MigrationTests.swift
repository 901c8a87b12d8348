import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

@Suite(
    "The schema migrates once, in one process or several at once, and refuses a newer one",
    .timeLimit(.minutes(1)))
struct MigrationTests {
    @Test("Migrating twice changes nothing the second time")
    func twice() async throws {
        try await withDatabase { client, _ in
            let store = try PostgresPostStore(
                client: client, events: try .forTests(), logger: TestServer.quiet)
            #expect(try await store.migrate() == 0)
            _ = try await store.store([samplePost(1)])
            #expect(try await store.migrate() == PostgresPostStore.schemaVersion)
            #expect(try await store.unfinished().count == 1)
        }
    }

    @Test("Eight stores migrating one new database at once all succeed")
    func concurrently() async throws {
        try await withDatabase { client, _ in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let store = try PostgresPostStore(
                            client: client, events: try .forTests(), logger: TestServer.quiet)
                        try await store.migrate()
                    }
                }
                try await group.waitForAll()
            }
            var versions: [Int] = []
            for try await (version, ) in try await client.query(
                "SELECT version FROM responderchain_schema_version ORDER BY version", logger: TestServer.quiet
            ).decode((Int.self,)) {
                versions.append(version)
            }
            #expect(versions == Array(1...PostgresPostStore.schemaVersion))
        }
    }

    @Test(
        "A version-2 database's claim counts become its keys' marks of the highest post claimed, and the counts go; a version-1 database starts every mark at 0"
    )
    func claimedThrough() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            _ = try await store.store([
                samplePost(1, key: "k"), samplePost(2, key: "k"), samplePost(3, key: "j"),
            ])
            let seqs = try await Self.column("seq", of: "responderchain_posts", orderedBy: "seq", client)
            // Back to version 2, as a database of that release is: post 1 claimed once.
            try await Self.run(
                [
                    "ALTER TABLE responderchain_keys DROP COLUMN claimed_through",
                    "ALTER TABLE responderchain_posts ADD COLUMN claims integer NOT NULL DEFAULT 0",
                    "UPDATE responderchain_posts SET claims = 1 WHERE seq = \(seqs[0])",
                    "DROP INDEX responderchain_posts_idempotency_key_set",
                    """
                    ALTER TABLE responderchain_posts ADD CONSTRAINT responderchain_posts_idempotency_key_key
                        UNIQUE (idempotency_key)
                    """,
                    "DELETE FROM responderchain_schema_version WHERE version > 2",
                ], client)
            #expect(try await store.migrate() == 2)
            #expect(try await Self.marks(client) == [0, seqs[0]])
            #expect(try await Self.hasClaimCounts(client) == false)
            #expect(try await Self.idempotencyIndexes(client) == ["responderchain_posts_idempotency_key_set"])
            // A claim moves the marks to the highest post it claimed under each key.
            #expect(try await store.claim(limit: 10).count == 3)
            #expect(try await Self.marks(client) == [seqs[2], seqs[1]])
            // Back to version 1 (no counts): every mark starts at 0.
            try await Self.run(
                [
                    "ALTER TABLE responderchain_keys DROP COLUMN claimed_through",
                    "DELETE FROM responderchain_schema_version WHERE version > 1",
                ], client)
            #expect(try await store.migrate() == 1)
            #expect(try await Self.marks(client) == [0, 0])
            #expect(try await Self.hasClaimCounts(client) == false)
            #expect(try await store.migrate() == PostgresPostStore.schemaVersion)
        }
    }

    private static func run(_ statements: [String], _ client: PostgresClient) async throws {
        for statement in statements {
            try await client.query(PostgresQuery(unsafeSQL: statement), logger: TestServer.quiet)
        }
    }

    /// Each key's mark, in key order.
    private static func marks(_ client: PostgresClient) async throws -> [Int] {
        try await column("claimed_through", of: "responderchain_keys", orderedBy: "key", client)
    }

    private static func column(
        _ column: String, of table: String, orderedBy order: String, _ client: PostgresClient
    ) async throws -> [Int] {
        var values: [Int] = []
        for try await (value, ) in try await client.query(
            PostgresQuery(unsafeSQL: "SELECT \(column)::bigint FROM \(table) ORDER BY \(order)"),
            logger: TestServer.quiet
        ).decode((Int.self,)) {
            values.append(value)
        }
        return values
    }

    /// The indexes on the idempotency key.
    private static func idempotencyIndexes(_ client: PostgresClient) async throws -> [String] {
        var names: [String] = []
        for try await (name, ) in try await client.query(
            """
            SELECT indexname FROM pg_indexes
            WHERE tablename = 'responderchain_posts' AND indexdef LIKE '%(idempotency_key)%' ORDER BY indexname
            """, logger: TestServer.quiet
        ).decode((String,).self) {
            names.append(name)
        }
        return names
    }

    private static func hasClaimCounts(_ client: PostgresClient) async throws -> Bool {
        var found = false
        for try await (count, ) in try await client.query(
            """
            SELECT count(*)::bigint FROM information_schema.columns
            WHERE table_name = 'responderchain_posts' AND column_name = 'claims'
            """, logger: TestServer.quiet
        ).decode((Int.self,)) {
            found = count > 0
        }
        return found
    }

    @Test("A database migrated by a newer binary is refused, typed, and left as it is")
    func newerRefused() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            try await client.query(
                "INSERT INTO responderchain_schema_version (version) VALUES (99)", logger: TestServer.quiet)
            await #expect {
                try await store.migrate()
            } throws: { error in
                guard case PostgresPostStoreError.newerSchema(let found, let known) = error else {
                    return false
                }
                return found == 99 && known == PostgresPostStore.schemaVersion
            }
        }
    }
}

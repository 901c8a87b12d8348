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
        "A version-1 database gains the claim count, its posts kept and counted as never claimed; a column there already is left alone"
    )
    func claimCount() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            _ = try await store.store([samplePost(1)])
            // Back to version 1, as a database of the previous release is.
            try await client.query(
                "ALTER TABLE responderchain_posts DROP COLUMN claims", logger: TestServer.quiet)
            try await client.query(
                "DELETE FROM responderchain_schema_version WHERE version > 1", logger: TestServer.quiet)
            #expect(try await store.migrate() == 1)
            #expect(try await Self.claimCounts(client) == [0])
            #expect(try await store.claim(limit: 10).count == 1)
            #expect(try await Self.claimCounts(client) == [1])
            // Version 1 recorded with the column there (a migration interrupted between the two,
            // say): migrating again keeps the counts.
            try await client.query(
                "DELETE FROM responderchain_schema_version WHERE version > 1", logger: TestServer.quiet)
            #expect(try await store.migrate() == 1)
            #expect(try await Self.claimCounts(client) == [1])
            #expect(try await store.migrate() == PostgresPostStore.schemaVersion)
        }
    }

    private static func claimCounts(_ client: PostgresClient) async throws -> [Int] {
        var counts: [Int] = []
        for try await (claims, ) in try await client.query(
            "SELECT claims::bigint FROM responderchain_posts ORDER BY seq", logger: TestServer.quiet
        ).decode((Int.self,)) {
            counts.append(claims)
        }
        return counts
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

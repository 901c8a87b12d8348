import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

@Suite("Rows this binary cannot read come back undecodable, never as a crash", .timeLimit(.minutes(1)))
struct UndecodableRowTests {
    @Test(
        "Unknown names, newer versions and bytes that do not decode are .undecodable with their bytes, in claims too once no newer reader is expected"
    )
    func undecodable() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            try await client.query(
                """
                INSERT INTO responderchain_keys (key) VALUES ('old') ON CONFLICT DO NOTHING
                """, logger: TestServer.quiet)
            try await client.query(
                """
                INSERT INTO responderchain_posts (id_epoch, id_sequence, ordering_key, entry, type_name, schema_version, payload)
                VALUES (-1, 1, 'old', 'desk', 'removed-event', 1, '\\x7b7d'::bytea),
                       (-1, 2, 'old', 'desk', 'sample', 9, '\\x7b7d'::bytea),
                       (-1, 3, 'old', 'desk', 'sample', 1, convert_to('not json', 'UTF8'))
                """, logger: TestServer.quiet)
            let reasons = try await store.unfinished().map { post -> String? in
                guard case .undecodable(let undecodable) = post.payload else { return nil }
                return undecodable.reason
            }
            #expect(reasons.count == 3)
            #expect(reasons.allSatisfy { $0 != nil })
            #expect(reasons[0]?.contains("no event type") == true)
            #expect(reasons[1]?.contains("schema version 9") == true)
            // By default the key waits for a consumer that reads version 9 (a rolling deploy);
            // one told that none is coming claims it, and every row comes back undecodable.
            #expect(try await store.claim(limit: 10).isEmpty)
            let final = try PostgresPostStore(
                client: client, events: try .forTests(), logger: TestServer.quiet,
                newerSchemaVersions: .deadLetter)
            let claimed = try await final.claim(limit: 10)
            #expect(claimed.count == 3)
            #expect(claimed.first?.id == EventID(epoch: UInt64.max, sequence: 1))
            guard case .undecodable(let first)? = claimed.first?.payload else {
                Issue.record("expected undecodable")
                return
            }
            #expect(first.bytes == Array("{}".utf8))
        }
    }

    @Test("An outcome kind this binary does not know is a malformedRow naming the column")
    func malformedOutcome() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            let post = samplePost(1)
            _ = try await store.store([post])
            try await client.query(
                "UPDATE responderchain_posts SET finished_at = now(), outcome_kind = 'exploded'",
                logger: TestServer.quiet)
            await #expect {
                try await store.outcome(of: post.id)
            } throws: { error in
                guard case PostgresPostStoreError.malformedRow(_, let column, _) = error else { return false }
                return column == "outcome_kind"
            }
        }
    }
}

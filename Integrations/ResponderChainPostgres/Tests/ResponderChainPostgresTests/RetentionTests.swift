import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

@Suite(
    "Finished posts, inbox entries and idle keys are forgotten after the retention", .timeLimit(.minutes(1)))
struct RetentionTests {
    static func count(_ table: String, _ client: PostgresClient) async throws -> Int {
        var count = 0
        for try await (value, ) in try await client.query(
            PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: TestServer.quiet
        ).decode((Int.self,)) {
            count = value
        }
        return count
    }

    @Test(
        "After the retention a finished post's outcome, idempotency key, inbox entry and key row are gone; unfinished posts and their keys stay"
    )
    func forgets() async throws {
        try await withDatabase { client, _ in
            let store = try PostgresPostStore(
                client: client, events: try .forTests(), retention: .milliseconds(500),
                logger: TestServer.quiet)
            try await store.migrate()
            let done = EventSystem.StoredPost(
                id: EventID(), key: "done", entry: "desk",
                payload: .event(PostStoreConformance.Sample(number: 1)),
                idempotencyKey: "order-1")
            let waiting = samplePost(2, key: "waiting")
            _ = try await store.store([done, waiting])
            try await store.inbox.handleOnce(done.id) { _ in }
            try await store.finish([.init(id: done.id, outcome: .init(kind: .handled, description: ""))])
            // Each finish prunes when a tenth of the retention passed since the last time.
            _ = try await eventually("the finished post to be forgotten") { () -> Bool? in
                try await store.finish([.init(id: EventID(), outcome: .init(kind: .handled, description: ""))]
                )
                return try await store.outcome(of: done.id) == nil ? true : nil
            }
            #expect(try await !store.inbox.hasHandled(done.id))
            #expect(try await store.unfinished().map(\.id) == [waiting.id])
            #expect(try await Self.count("responderchain_keys", client) == 1)
            let again = samplePost(3, key: "done")
            let retry = EventSystem.StoredPost(
                id: again.id, key: again.key, entry: again.entry, payload: again.payload,
                idempotencyKey: "order-1")
            #expect(try await store.store([retry]) == [.stored])
            #expect(try await store.claim(limit: 10).count == 2)
        }
    }
}

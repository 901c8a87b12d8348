import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

@Suite("The outbox posts inside the application's transaction", .timeLimit(.minutes(1)))
struct OutboxTests {
    @Test("Posts written in a committed transaction are claimable; a rolled-back one leaves none")
    func commitOrNothing() async throws {
        struct Refused: Error {}
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            let id = try await store.write { _, outbox in
                try await outbox.post(PostStoreConformance.Sample(number: 1), to: "desk", key: "order-1")
            }
            await #expect(throws: Refused.self) {
                try await store.write { _, outbox in
                    try await outbox.post(PostStoreConformance.Sample(number: 2), to: "desk", key: "order-2")
                    throw Refused()
                }
            }
            let claimed = try await store.claim(limit: 10)
            #expect(claimed.map(\.id) == [id])
            #expect(claimed.first?.lease != nil)
        }
    }
}

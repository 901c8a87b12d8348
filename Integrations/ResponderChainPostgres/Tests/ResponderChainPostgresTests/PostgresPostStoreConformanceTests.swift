import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

@Suite("A PostgreSQL post store keeps the store contract", .timeLimit(.minutes(1)))
struct PostgresPostStoreConformanceTests {
    @Test("It passes the check", arguments: PostStoreConformance.checks)
    func passes(_ check: PostStoreConformance.Check) async throws {
        try await withDatabase { client, _ in
            try await check.run { clock in
                PostStoreConformance.Subject(
                    store: try await migratedStore(client, clock: clock),
                    reopen: { clock in try await migratedStore(client, clock: clock) })
            }
        }
    }
}

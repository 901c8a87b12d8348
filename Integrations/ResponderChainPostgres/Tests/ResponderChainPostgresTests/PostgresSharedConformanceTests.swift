import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

@Suite("Two PostgreSQL post stores over one database keep the shared store contract", .timeLimit(.minutes(1)))
struct PostgresSharedConformanceTests {
    /// The first store's leases, short enough to wait out.
    static let lease = Duration.seconds(2)

    /// Two stores, each with its own client (connection pool) on one database. The second runs
    /// (heartbeats and the listener behind its signals); the first does not, so its leases are
    /// never renewed: `expireLeases` waits, on the database's clock, until they have run out,
    /// as they would for a consumer whose process stopped. No row is touched by hand.
    @Test("It passes the shared check", arguments: SharedPostStoreConformance.checks)
    func passes(_ check: SharedPostStoreConformance.Check) async throws {
        try await withDatabase { firstClient, configuration in
            try await withClient(configuration) { secondClient in
                let first = try await migratedStore(firstClient, consumer: "first", lease: Self.lease)
                let second = try await migratedStore(secondClient, consumer: "second", lease: Self.lease)
                try await whileRunning(second) {
                    try await eventually("the second store to listen") { second.listenerProcessID }
                    try await check.run {
                        SharedPostStoreConformance.Subject(first: first, second: second) {
                            try await waitForLeasesToRunOut(secondClient)
                        }
                    }
                }
            }
        }
    }
}

/// Waits until no key's lease is live on the database's clock (`now()`).
func waitForLeasesToRunOut(_ client: PostgresClient) async throws {
    try await eventually("every lease to run out") { () -> Bool? in
        var live = 0
        for try await (count, ) in try await client.query(
            "SELECT count(*) FROM responderchain_keys WHERE owner IS NOT NULL AND lease_until >= now()",
            logger: TestServer.quiet
        ).decode((Int.self,)) {
            live = count
        }
        return live == 0 ? true : nil
    }
}

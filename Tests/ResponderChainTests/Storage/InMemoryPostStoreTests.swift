import ResponderChain
import ResponderChainTesting
import Testing

@Suite("An in-memory post store keeps the store contract")
struct InMemoryPostStoreTests {
    @Test("It passes the check", arguments: PostStoreConformance.checks)
    func passes(_ check: PostStoreConformance.Check) async throws {
        try await check.run { clock in
            PostStoreConformance.Subject(store: EventSystem.InMemoryPostStore(clock: clock))
        }
    }
}

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

@Suite("In-memory store: the shared store contract")
struct InMemorySharedPostStoreTests {
    @Test(arguments: SharedPostStoreConformance.checks)
    func keepsTheSharedContract(_ check: SharedPostStoreConformance.Check) async throws {
        try await check.run {
            let store = EventSystem.InMemoryPostStore()
            return SharedPostStoreConformance.Subject(first: store, second: store) { store.expireLeases() }
        }
    }
}

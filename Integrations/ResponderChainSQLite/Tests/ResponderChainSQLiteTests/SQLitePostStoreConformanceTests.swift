import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

@Suite("An SQLite post store keeps the store contract")
struct SQLitePostStoreConformanceTests {
    @Test("It passes the check", arguments: PostStoreConformance.checks)
    func passes(_ check: PostStoreConformance.Check) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file()
        let events = try StoredEvents.forTests()
        try await check.run { clock in
            PostStoreConformance.Subject(
                store: try SQLitePostStore(path: path, events: events, clock: clock),
                reopen: { clock in try SQLitePostStore(path: path, events: events, clock: clock) })
        }
    }
}

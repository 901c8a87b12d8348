import ResponderChain
import ResponderChainSQLite
import Testing

@Suite("A stored batch is one transaction")
struct GroupCommitTests {
    @Test("A row that cannot be written leaves none of its batch, and the next batch is stored")
    func allOrNothing() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(path: directory.file(), events: try .forTests())
        let first = EventSystem.StoredPost.order("o-1")
        let second = EventSystem.StoredPost.order("o-2")
        // The same identifier twice: the third row breaks the table's uniqueness.
        await #expect(throws: (any Error).self) {
            try await store.store([first, second, first])
        }
        #expect(try await store.unfinished().isEmpty)
        #expect(try await store.store([first, second]) == [.stored, .stored])
        #expect(try await store.unfinished().map(\.id) == [first.id, second.id])
    }
}

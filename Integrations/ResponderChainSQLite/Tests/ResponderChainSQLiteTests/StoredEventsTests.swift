import ResponderChain
import ResponderChainSQLite
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

@Suite("Stored events are registered by name, and only registered events are stored")
struct StoredEventsTests {
    @Test("A taken name, a registered type, an empty name and a version below 1 are refused")
    func refusals() throws {
        var events = StoredEvents()
        try events.register(OrderPlaced.self, as: "order-placed")
        #expect(throws: StoredEventsError.self) {
            try events.register(PostStoreConformance.Sample.self, as: "order-placed")
        }
        #expect(throws: StoredEventsError.self) {
            try events.register(OrderPlaced.self, as: "order-placed-2")
        }
        #expect(throws: StoredEventsError.emptyName) { try events.register(Unregistered.self, as: "") }
        #expect(throws: StoredEventsError.invalidVersion(0)) {
            try events.register(Unregistered.self, as: "u", version: 0)
        }
        #expect(events.name(of: OrderPlaced.self) == "order-placed")
        #expect(events.name(of: Unregistered.self) == nil)
    }

    @Test("A batch with an unregistered event throws a typed error and writes none of the batch")
    func unregisteredBatch() async throws {
        let directory = try TemporaryDirectory()
        let store = try SQLitePostStore(path: directory.file(), events: try .forTests())
        let batch = [
            EventSystem.StoredPost.order("o-1"),
            EventSystem.StoredPost(id: EventID(), key: "k", entry: "orders", payload: .event(Unregistered())),
        ]
        await #expect(
            throws: SQLitePostStoreError.unregisteredEvent(typeName: String(reflecting: Unregistered.self))
        ) {
            try await store.store(batch)
        }
        #expect(try await store.unfinished().isEmpty)
    }

    @Test("Finished posts, their idempotency keys and inbox entries are forgotten after the retention")
    func retention() async throws {
        let directory = try TemporaryDirectory()
        let clock = ManualClock()
        let store = try SQLitePostStore(
            path: directory.file(), events: try .forTests(), retention: .seconds(100), clock: clock)
        let post = EventSystem.StoredPost.order("o-1", idempotencyKey: "order-o-1")
        _ = try await store.store([post])
        try await store.finish([.init(id: post.id, outcome: .init(kind: .handled, description: "handled"))])
        let handled = EventID()
        try await store.inbox.handleOnce(handled) { _ in }
        await clock.advance(by: .seconds(50))
        #expect(
            try await store.store([.order("o-1", idempotencyKey: "order-o-1")]).first?.isDuplicate == true)
        await clock.advance(by: .seconds(51))
        _ = try await store.store([.order("o-2")])  // a commit prunes
        #expect(try await store.outcome(of: post.id) == nil)
        #expect(try await store.inbox.hasHandled(handled) == false)
        #expect(try await store.store([.order("o-1", idempotencyKey: "order-o-1")]) == [.stored])
    }
}

extension EventSystem.StoredPost.Acceptance {
    var isDuplicate: Bool {
        if case .duplicate = self { return true }
        return false
    }
}

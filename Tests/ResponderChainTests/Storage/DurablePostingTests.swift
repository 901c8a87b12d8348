import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Durable posting")
struct DurablePostingTests {
    @Test("a post is acknowledged, and delivered, only once its store holds it; its end is recorded there")
    func acknowledgedAfterTheStoreHoldsIt() async throws {
        let gate = Gate()
        let handling = Gate()
        let store = RecordingStore(gate: gate)
        let system = EventSystem(storage: .store(store))
        let desk = ScriptedResponder("desk", .park(handling), root: true, system: system)
        try system.register(desk, as: "desk")
        let posting = Task { await desk.post(PlaceOrder(number: 1)) }
        try await gate.waitForArrivals(1)
        // The write is held: the post is neither accepted (outstanding) nor delivered yet.
        #expect(system.outstandingPosts == 0)
        #expect(store.inner.count == 0)
        gate.open()
        let ticket = await posting.value
        #expect(store.inner.count == 1)
        handling.open()
        #expect(await ticket.outcome.kind == .handled)
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(try await system.storedOutcome(of: ticket.eventID)?.kind == .handled)
        #expect(try await store.unfinished().isEmpty)
    }

    @Test("posts that arrive while a write is under way share the next write (group commit)")
    func postsArrivingTogetherShareOneWrite() async throws {
        let gate = Gate()
        let store = RecordingStore(gate: gate)
        let system = EventSystem(storage: .store(store))
        let desk = ScriptedResponder("desk", .handle, root: true, system: system)
        try system.register(desk, as: "desk")
        let first = Task { await desk.post(PlaceOrder(number: 0)) }
        try await gate.waitForArrivals(1)  // the first write is under way
        let rest = (1...50).map { number in Task { await desk.post(PlaceOrder(number: number)) } }
        // Each of the fifty waits for the first write to end before its own can start.
        try await waitUntil("fifty posters wait for the writer") { system.postsWaitingForTheStore == 50 }
        gate.open()
        _ = await first.value.outcome
        for task in rest { #expect(await task.value.outcome.kind == .handled) }
        #expect(store.storedBatches == [1, 50])
    }

    @Test("a post the store cannot hold is rejected, says why, and is never delivered")
    func aFailedWriteRejects() async throws {
        let system = EventSystem(storage: .store(RecordingStore(failsToStore: true)))
        let desk = ScriptedResponder("desk", .handle, root: true, system: system)
        try system.register(desk, as: "desk")
        let outcome = await desk.post(PlaceOrder(number: 1)).outcome
        #expect(outcome.rejectedDetails?.reason == .notStored("disk full"))
        #expect(await desk.seen.isEmpty)
    }

    @Test("a durable system refuses a post from a sender with no name to store it under")
    func unnamedSenderIsRejected() async throws {
        let system = EventSystem(storage: .store(EventSystem.InMemoryPostStore()))
        let desk = ScriptedResponder("desk", .handle, root: true, system: system)
        let outcome = await desk.post(PlaceOrder(number: 1)).outcome
        #expect(outcome.rejectedDetails?.reason == .unnamedSender)
    }

    @Test("a responder keeps its name: registering it under a second one fails, typed")
    func entriesKeepTheirNames() throws {
        let system = EventSystem()
        let desk = ScriptedResponder("desk", root: true, system: system)
        try system.register(desk, as: "desk")
        try system.register(desk, as: "desk")  // again under the same name: fine
        let error = #expect(throws: ResponderChainError.self) { try system.register(desk, as: "counter") }
        #expect(error?.code == .entryRenamed)
    }

    @Test("a retry with the same idempotency key gets the first post's ticket while it is outstanding")
    func retryWhileOutstandingGetsTheSameTicket() async throws {
        for storage in [EventSystem.Storage.memory, .store(EventSystem.InMemoryPostStore())] {
            let system = EventSystem(storage: storage)
            let gate = Gate()
            let desk = ScriptedResponder("desk", .park(gate), root: true, system: system)
            try system.register(desk, as: "desk")
            let first = await desk.post(PlaceOrder(number: 1), idempotencyKey: "order-1")
            let retry = await desk.post(PlaceOrder(number: 1), idempotencyKey: "order-1")
            #expect(retry == first)
            gate.open()
            #expect(await first.outcome.kind == .handled)
            #expect(await desk.seen.count == 1)
        }
    }

    @Test(
        "a retry after the first post finished is a duplicate carrying the stored outcome, even in another system"
    )
    func retryAfterFinishIsADuplicate() async throws {
        let store = EventSystem.InMemoryPostStore()
        let first = EventSystem(storage: .store(store))
        let desk = ScriptedResponder("desk", .handle, root: true, system: first)
        try first.register(desk, as: "desk")
        let original = await desk.post(PlaceOrder(number: 1), idempotencyKey: "order-1")
        _ = await original.outcome
        await first.shutDown(gracePeriod: .seconds(30))

        let second = EventSystem(storage: .store(store))
        let newDesk = ScriptedResponder("desk", .handle, root: true, system: second)
        try second.register(newDesk, as: "desk")
        let retry = await newDesk.post(PlaceOrder(number: 1), idempotencyKey: "order-1").outcome
        let reason = try #require(retry.rejectedDetails?.reason)
        #expect(
            reason
                == .duplicate(
                    of: original.eventID,
                    outcome: EventSystem.StoredOutcome(kind: .handled, description: reason.storedDescription))
        )
        #expect(await newDesk.seen.isEmpty)
    }

    @Test("a stored post refuses options a store cannot keep, typed")
    func unstorableOptionsAreRejected() async throws {
        let system = EventSystem(storage: .store(EventSystem.InMemoryPostStore()))
        let desk = ScriptedResponder("desk", .handle, root: true, system: system)
        try system.register(desk, as: "desk")
        let outcome = await desk.post(PlaceOrder(number: 1), options: .startingAtNext).outcome
        guard case .notStored = outcome.rejectedDetails?.reason else {
            Issue.record("expected notStored, got \(outcome)")
            return
        }
    }
}

extension Outcome.Rejection.Reason {
    /// The description inside a duplicate's stored outcome.
    fileprivate var storedDescription: String {
        if case .duplicate(_, let outcome?) = self { return outcome.description }
        return ""
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Recovering stored posts")
struct RecoveryTests {
    /// A system on `store` with a desk registered as "desk" that runs `script`.
    private static func deskSystem(
        on store: any EventSystem.PostStore, clock: any Clock<Duration> = ContinuousClock(),
        deadLetters: DeadLetterRecorder? = nil, _ script: ScriptedResponder.Script = .handle
    ) throws -> (EventSystem, ScriptedResponder) {
        try deskSystem(on: store, clock: clock, deadLetters: deadLetters) { _ in script }
    }

    /// A system on `store` with a desk registered as "desk" that runs the script `scripts` picks.
    private static func deskSystem(
        on store: any EventSystem.PostStore, clock: any Clock<Duration> = ContinuousClock(),
        deadLetters: DeadLetterRecorder? = nil,
        scripts: @escaping @Sendable (any Event) -> ScriptedResponder.Script
    ) throws -> (EventSystem, ScriptedResponder) {
        let system = EventSystem(deadLetters: deadLetters?.sink, clock: clock, storage: .store(store))
        let desk = ScriptedResponder("desk", root: true, system: system, scripts: scripts)
        try system.register(desk, as: "desk")
        return (system, desk)
    }

    /// A system on a new in-memory store whose desk is delivering its one post,
    /// `PlaceOrder(number: 1)`, parked on `gate`: the post is stored and stays unfinished until
    /// the gate opens.
    private static func deskDeliveringOnePost(parkedOn gate: Gate) async throws
        -> (EventSystem.InMemoryPostStore, EventSystem, ScriptedResponder, Ticket)
    {
        let store = EventSystem.InMemoryPostStore()
        let (system, desk) = try deskSystem(on: store, .park(gate))
        let ticket = await desk.post(PlaceOrder(number: 1))
        try await gate.waitForArrivals(1)
        return (store, system, desk, ticket)
    }

    /// An in-memory store on `clock` holding one post for "desk" with `timeLeft`.
    private static func storeHoldingOnePost(timeLeft: Duration, clock: ManualClock) async throws
        -> EventSystem.InMemoryPostStore
    {
        let store = EventSystem.InMemoryPostStore(clock: clock)
        _ = try await store.store([
            EventSystem.StoredPost(
                id: EventID(), key: "desk", entry: "desk", payload: .event(PlaceOrder(number: 1)),
                timeLeft: timeLeft)
        ])
        return store
    }

    @Test(
        "a graceful shutdown keeps the queued posts in the store, counts them, and the next start delivers them in key order"
    )
    func shutdownKeepsQueuedPostsForTheNextStart() async throws {
        let store = EventSystem.InMemoryPostStore()
        let gate = Gate()
        let letters = DeadLetterRecorder()
        let (first, desk) = try Self.deskSystem(on: store, deadLetters: letters) { event in
            (event as? PlaceOrder)?.number == 0 ? .park(gate) : .handle
        }
        let running = await desk.post(PlaceOrder(number: 0))
        try await gate.waitForArrivals(1)
        var queued: [Ticket] = []
        for number in 1...3 { queued.append(await desk.post(PlaceOrder(number: number))) }
        let shuttingDown = Task { await first.shutDown(gracePeriod: .seconds(30)) }
        try await waitUntil("the shutdown began") { first.isShuttingDown }
        gate.open()
        let report = await shuttingDown.value
        #expect(report.finished == 1)
        #expect(report.kept == 3)
        #expect(await running.outcome.kind == .handled)
        for ticket in queued {
            #expect(await ticket.outcome.cancelledDetails?.reason == .keptForNextStart)
        }
        #expect(letters.count == 0)  // kept, not lost

        let (second, newDesk) = try Self.deskSystem(on: store)
        #expect(try await second.recoverStoredPosts() == 3)
        try await waitUntil("the kept posts are handled", observing: second) { await newDesk.seen.count == 3 }
        #expect(await newDesk.seen.compactMap { ($0.event as? PlaceOrder)?.number } == [1, 2, 3])
        #expect(await newDesk.seen.map(\.eventID) == queued.map(\.eventID))
        await second.shutDown(gracePeriod: .seconds(30))
        #expect(try await store.unfinished().isEmpty)
    }

    @Test("a system that is shutting down recovers nothing away: the posts it refuses stay unfinished")
    func recoveryDuringShutdownLosesNothing() async throws {
        let gate = Gate()
        let (store, first, _, ticket) = try await Self.deskDeliveringOnePost(parkedOn: gate)
        // The first system dies with the post unfinished (its delivery never ends).
        let (second, _) = try Self.deskSystem(on: store, .handle)
        await second.shutDown(gracePeriod: .seconds(30))
        #expect(try await second.recoverStoredPosts() == 1)  // found, refused: shutting down
        await second.shutDown(gracePeriod: .seconds(30))  // again: everything it wrote is written
        #expect(try await store.unfinished().map(\.id) == [ticket.eventID])
        gate.open()
        _ = await ticket.outcome
        await first.shutDown(gracePeriod: .seconds(30))
    }

    @Test("recovering twice, or recovering posts this system holds, delivers nothing twice")
    func recoveryDeliversNothingTwice() async throws {
        let gate = Gate()
        let (_, system, desk, ticket) = try await Self.deskDeliveringOnePost(parkedOn: gate)
        #expect(try await system.recoverStoredPosts() == 1)  // found, but already held here
        gate.open()
        _ = await ticket.outcome
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(await desk.seen.count == 1)
    }

    @Test(
        "a stored post that cannot be read fails typed, reaches the dead letters with its bytes, and its key goes on"
    )
    func undecodablePostsFailTyped() async throws {
        let store = EventSystem.InMemoryPostStore()
        let unreadable = EventSystem.StoredPost.Undecodable(
            typeName: "OrderRemoved", schemaVersion: 3, bytes: [1, 2, 3], reason: "no such event type")
        let badID = EventID()
        _ = try await store.store([
            EventSystem.StoredPost(id: badID, key: "desk", entry: "desk", payload: .undecodable(unreadable)),
            EventSystem.StoredPost(
                id: EventID(), key: "desk", entry: "desk", payload: .event(PlaceOrder(number: 2))),
        ])
        let letters = DeadLetterRecorder()
        let (system, desk) = try Self.deskSystem(on: store, deadLetters: letters)
        try await system.recoverStoredPosts()
        try await letters.waitForLetters(1)
        let letter = try #require(letters.letters.first)
        let error = try #require(letter.outcome.failedDetails?.error as? ResponderChainError)
        #expect(error.code == .undecodableStoredPost)
        #expect((letter.event as? EventSystem.StoredPost.Undecodable)?.bytes == [1, 2, 3])
        try await waitUntil("the next post of the key is handled", observing: system) {
            await desk.seen.count == 1
        }
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(try await system.storedOutcome(of: badID)?.kind == .failed)
    }

    @Test("a stored post naming an entry nobody registered fails typed and goes to the dead letters")
    func unknownEntriesFailTyped() async throws {
        let store = EventSystem.InMemoryPostStore()
        _ = try await store.store([
            EventSystem.StoredPost(
                id: EventID(), key: "gone", entry: "gone", payload: .event(PlaceOrder(number: 1)))
        ])
        let letters = DeadLetterRecorder()
        let (system, _) = try Self.deskSystem(on: store, deadLetters: letters)
        try await system.recoverStoredPosts()
        try await letters.waitForLetters(1)
        let error = try #require(letters.outcomes.first?.failedDetails?.error as? ResponderChainError)
        #expect(error.code == .unknownEntry)
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(try await store.unfinished().isEmpty)
    }

    @Test("a post whose deadline passed while the process was down ends timed out, before any hop")
    func deadlinesSurviveTheRestart() async throws {
        let clock = ManualClock()
        let store = try await Self.storeHoldingOnePost(timeLeft: .seconds(5), clock: clock)
        await clock.advance(by: .seconds(6))
        let letters = DeadLetterRecorder()
        let (system, desk) = try Self.deskSystem(on: store, clock: clock, deadLetters: letters)
        try await system.recoverStoredPosts()
        try await letters.waitForLetters(1)
        #expect(letters.outcomes.first?.kind == .timedOut)
        #expect(await desk.seen.isEmpty)
    }

    @Test("a stored post keeps its time left: a redelivery never runs past the sender's deadline")
    func timeLeftIsKept() async throws {
        let clock = ManualClock()
        let store = try await Self.storeHoldingOnePost(timeLeft: .seconds(5), clock: clock)
        await clock.advance(by: .seconds(2))
        let (system, desk) = try Self.deskSystem(
            on: store, clock: clock, ScriptedResponder.Script([.note { _, context in context.deadline }]))
        try await system.recoverStoredPosts()
        try await waitUntil("the post is handled", observing: system) { await desk.seen.count == 1 }
        let deadline = try #require(await desk.notes.first as? EventSystem.Instant)
        #expect(deadline == system.now + .seconds(3))
    }

    @Test("a stored post keeps its trace context: its delivery after a restart runs in the sender's trace")
    func traceContextSurvivesTheRestart() async throws {
        let store = EventSystem.InMemoryPostStore()
        let gate = Gate()
        let tracer = RequestTracer()
        let first = EventSystem(tracer: tracer, storage: .store(store))
        let desk = ScriptedResponder("desk", .park(gate), root: true, system: first)
        try first.register(desk, as: "desk")
        _ = await desk.post(PlaceOrder(number: 0))  // holds the lane
        try await gate.waitForArrivals(1)
        await RequestTracer.$requestID.withValue("req-42") {
            _ = await desk.post(PlaceOrder(number: 1))
        }
        let shuttingDown = Task { await first.shutDown(gracePeriod: .seconds(30)) }
        try await waitUntil("the shutdown began") { first.isShuttingDown }
        gate.open()
        #expect(await shuttingDown.value.kept == 1)

        let second = EventSystem(tracer: tracer, storage: .store(store))
        let newDesk = ScriptedResponder(
            "desk", ScriptedResponder.Script([.note { _, _ in RequestTracer.requestID ?? "none" }]),
            root: true,
            system: second)
        try second.register(newDesk, as: "desk")
        try await second.recoverStoredPosts()
        try await waitUntil("the kept post is handled", observing: second) { await newDesk.seen.count == 1 }
        #expect(await newDesk.notes.first as? String == "req-42")
    }
}

/// A tracer whose scope binds the request identifier the sender's task had.
private struct RequestTracer: ScopingTracer {
    @TaskLocal static var requestID: String?

    func captureContext() -> String? { Self.requestID }

    func storedContext(of requestID: String) -> [String: String] { ["request-id": requestID] }

    func context(restoredFrom stored: [String: String]) -> String? { stored["request-id"] }

    nonisolated(nonsending) func withHop(
        _ scope: Hop.Scope<String>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await Self.$requestID.withValue(scope.context) { try await body() }
    }

    func record(_ event: TraceEvent) {}
}

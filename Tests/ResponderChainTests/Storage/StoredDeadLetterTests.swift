import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

/// What the desk throws while it is down.
private struct DeskDown: Error {}

/// A system on a manual clock and an in-memory store on that clock, whose desk, registered as
/// "desk", fails while `down` is set and counts the posts it handled by identifier.
private final class DeskRig: Sendable {
    /// Whether the desk is down, and what it handled.
    private final class Desk: Sendable {
        let state = Locked<(down: Bool, handled: [EventID: Int])>((true, [:]))
    }

    let clock = ManualClock()
    let store: EventSystem.InMemoryPostStore
    let system: EventSystem
    let desk: ScriptedResponder
    let letters = DeadLetterRecorder()
    private let deskState = Desk()

    /// A rig on the store `makeStore` makes on the rig's clock: by default an in-memory store with
    /// the default retention and dead-letter limit.
    init(
        store makeStore: (ManualClock) -> EventSystem.InMemoryPostStore = {
            EventSystem.InMemoryPostStore(clock: $0)
        }
    ) throws {
        store = makeStore(clock)
        system = EventSystem(deadLetters: letters.sink, clock: clock, storage: .store(store))
        let deskState = self.deskState
        desk = ScriptedResponder("desk", root: true, system: system) { _ in
            .init([
                .perform { _, context in
                    let down = deskState.state.withLock { state in
                        if !state.down { state.handled[context.eventID, default: 0] += 1 }
                        return state.down
                    }
                    if down { throw DeskDown() }
                }
            ])
        }
        try system.register(desk, as: "desk")
    }

    /// Brings the desk up (or down).
    func setDown(_ down: Bool) { deskState.state.withLock { $0.down = down } }
    /// How many times each post was handled.
    var handled: [EventID: Int] { deskState.state.withLock { $0.handled } }

    /// Posts `count` orders numbered from `first` under `key`, and waits until each has ended and
    /// its end is written: the store dates an end when it writes it, which the system does after
    /// the ticket has its outcome, so a test that moves the clock next must wait for the write.
    func post(_ count: Int, from first: Int = 0, key: EventSystem.OrderingKey = "desk") async throws
        -> [Ticket]
    {
        var tickets: [Ticket] = []
        for number in first..<(first + count) {
            tickets.append(await desk.post(PlaceOrder(number: number), key: key))
        }
        for ticket in tickets { _ = await ticket.outcome }
        let store = self.store
        let ids = Set(tickets.map(\.eventID))
        try await waitUntil("the posts' ends are written") {
            (try? await store.unfinished().contains { ids.contains($0.id) }) == false
        }
        return tickets
    }
}

@Suite("Stored dead letters and redrive", .timeLimit(.minutes(5)))
struct StoredDeadLetterTests {
    @Test("A stored post that ends other than handled is kept as a dead letter past the store's retention")
    func deadLettersOutliveRetention() async throws {
        let rig = try DeskRig { EventSystem.InMemoryPostStore(retention: .seconds(60), clock: $0) }
        let failed = try await rig.post(2)
        rig.setDown(false)
        let handled = try await rig.post(1, from: 2)
        await rig.system.shutDown(gracePeriod: .zero)  // every end is written

        await rig.clock.advance(by: .seconds(3_600))
        _ = try await rig.store.store([])  // the store prunes what retention let go on its next write
        let kept = try await rig.store.deadLetters(matching: .all)
        #expect(kept.map(\.post.id) == failed.map(\.eventID))
        #expect(kept.allSatisfy { $0.outcome.kind == .failed && $0.age == .seconds(3_600) })
        #expect(try await rig.store.outcome(of: handled[0].eventID) == nil)  // pruned: not a dead letter
        #expect(rig.letters.count == 2)
    }

    @Test("Dead letters are read by event name, key, outcome and age, in post order, a page at a time")
    func deadLettersAreQueried() async throws {
        let rig = try DeskRig()
        let a = try await rig.post(3, key: "a")
        await rig.clock.advance(by: .seconds(100))
        let b = try await rig.post(2, from: 3, key: "b")
        await rig.system.shutDown(gracePeriod: .zero)

        #expect(try await rig.system.storedDeadLetters().map(\.post.id) == (a + b).map(\.eventID))
        #expect(
            try await rig.system.storedDeadLetters(matching: .init(keys: ["b"])).map(\.post.id)
                == b.map(\.eventID))
        #expect(try await rig.system.storedDeadLetters(matching: .init(minimumAge: .seconds(50))).count == 3)
        #expect(try await rig.system.storedDeadLetters(matching: .init(maximumAge: .seconds(50))).count == 2)
        #expect(try await rig.system.storedDeadLetters(matching: .init(outcomes: [.timedOut])).isEmpty)
        #expect(
            try await rig.system.storedDeadLetters(matching: .init(eventNames: ["PlaceOrder"])).count == 5)
        #expect(try await rig.system.storedDeadLetters(matching: .init(eventNames: ["Other"])).isEmpty)
        let first = try await rig.system.storedDeadLetters(matching: .init(limit: 2))
        let next = try await rig.system.storedDeadLetters(
            matching: .init(after: first.last?.post.id, limit: 2))
        #expect((first + next).map(\.post.id) == Array((a + b).map(\.eventID).prefix(4)))
    }

    @Test(
        "A redrive sends each dead letter again with its own identifier, at the rate asked, on the system's clock"
    )
    func redriveKeepsIdentifiersAndRate() async throws {
        let rig = try DeskRig()
        let failed = try await rig.post(100)
        rig.setDown(false)

        // 100 letters at 20 a second: batches of 2, every 100 ms, for 5 s.
        let redrive = Task { try await rig.system.redriveDeadLetters(perSecond: 20) }
        try await rig.clock.waitForTimers(1) { $0 == "the redrive's pause" }
        let fired = await rig.clock.run()
        let sent = try await redrive.value
        try await waitUntil("every letter sent again is handled", observing: rig.system) {
            rig.handled.count == 100
        }

        #expect(sent == 100)
        #expect(fired == 50)
        #expect(rig.clock.now == EventSystem.Instant(offset: .seconds(5)))
        #expect(Set(rig.handled.keys) == Set(failed.map(\.eventID)))
        #expect(rig.handled.values.allSatisfy { $0 == 1 })
        await rig.system.shutDown(gracePeriod: .zero)
        #expect(try await rig.store.deadLetters(matching: .all).isEmpty)
        #expect(try await rig.store.outcome(of: failed[0].eventID)?.kind == .handled)
        // A second redrive finds nothing to send.
        #expect(try await rig.system.redriveDeadLetters() == 0)
    }

    @Test(
        "A letter that fails again during a redrive is a dead letter again, and that redrive does not send it twice"
    )
    func failingAgainIsNotSentTwice() async throws {
        let rig = try DeskRig()
        let failed = try await rig.post(4)

        let redrive = Task { try await rig.system.redriveDeadLetters(perSecond: 10) }  // one at a time
        for (index, post) in failed.enumerated() {
            try await rig.clock.waitForTimers(1) { $0 == "the redrive's pause" }
            // Sent again, failed again, and written back as a dead letter before the next read
            // (nothing signals the store's write: this looks until it is there).
            try await waitUntil("post \(index) is a dead letter again") {
                (try? await rig.store.deadLetters(matching: .all).contains { $0.post.id == post.eventID })
                    == true
            }
            await rig.clock.advance(by: .milliseconds(100))
        }
        #expect(try await redrive.value == 4)
        #expect(rig.letters.count == 8)
        await rig.system.shutDown(gracePeriod: .zero)
        #expect(try await rig.store.deadLetters(matching: .all).map(\.post.id) == failed.map(\.eventID))
    }

    @Test("A purge forgets the dead letters it matches, and only those")
    func purgeForgets() async throws {
        let rig = try DeskRig()
        let a = try await rig.post(150, key: "a")
        let b = try await rig.post(1, from: 150, key: "b")
        await rig.system.shutDown(gracePeriod: .zero)

        #expect(try await rig.system.purgeDeadLetters(matching: .init(keys: ["a"])) == 150)
        #expect(try await rig.store.deadLetters(matching: .all).map(\.post.id) == b.map(\.eventID))
        #expect(try await rig.store.outcome(of: a[0].eventID) == nil)
        #expect(try await rig.system.purgeDeadLetters(matching: .init(keys: ["a"])) == 0)
    }

    @Test("The in-memory store keeps at most its limit of dead letters: the oldest go first, counted")
    func inMemoryDeadLettersAreBounded() async throws {
        let rig = try DeskRig { EventSystem.InMemoryPostStore(deadLetterLimit: 3, clock: $0) }
        let failed = try await rig.post(5)
        await rig.system.shutDown(gracePeriod: .zero)

        #expect(
            try await rig.store.deadLetters(matching: .all).map(\.post.id) == failed.suffix(3).map(\.eventID))
        #expect(rig.store.droppedDeadLetters == 2)
        #expect(try await rig.store.outcome(of: failed[0].eventID) == nil)
        #expect(rig.letters.count == 5)  // every one reached the sink
    }

    @Test("A system that keeps its posts in memory keeps no stored dead letters")
    func memorySystemKeepsNone() async throws {
        let system = EventSystem()
        #expect(try await system.storedDeadLetters().isEmpty)
        #expect(try await system.redriveDeadLetters() == 0)
        #expect(try await system.purgeDeadLetters(matching: .all) == 0)
    }
}

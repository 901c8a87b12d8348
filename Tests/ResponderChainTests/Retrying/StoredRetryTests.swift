import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

/// What ``Register`` throws for an attempt it refuses.
private struct Offline: Error, Equatable {
    let attempt: Int
}

/// A root that fails every attempt before `failures`, handles the rest, and writes down the
/// instant of each attempt; registered as "register" in its system.
private actor Register: Responder {
    let system: EventSystem
    private let failures: Int
    private(set) var attempts: [EventSystem.Instant] = []

    init(system: EventSystem, failures: Int) {
        self.system = system
        self.failures = failures
    }

    nonisolated var eventSystem: EventSystem { system }
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    func attempt() throws -> Disposition {
        attempts.append(system.now)
        if attempts.count <= failures { throw Offline(attempt: attempts.count) }
        return .handled
    }

    static let strategies = Strategies<Register> {
        $0.on(PlaceOrder.self) { register, _, _ in try register.attempt() }
    }
}

/// A system on `store` and `clock` that retries with `policy`, and its register, which fails
/// the first `failures` attempts it sees.
private func registerSystem(
    on store: EventSystem.InMemoryPostStore, clock: ManualClock, policy: EventSystem.RetryPolicy,
    failures: Int
) throws -> (EventSystem, Register) {
    let system = EventSystem(
        clock: clock, storage: .store(store), retryPolicies: EventSystem.RetryPolicies(standard: policy))
    let register = Register(system: system, failures: failures)
    try system.register(register, as: "register")
    return (system, register)
}

@Suite("Retries of stored posts", .timeLimit(.minutes(5)))
struct StoredRetryTests {
    /// 4 attempts, 10 s doubling, no jitter: attempts at 0, 10, 30 and 70 s.
    private let policy = EventSystem.RetryPolicy(
        maximumAttempts: 4, initialBackoff: .seconds(10), multiplier: 2, jitter: 0)

    @Test(
        "Each failure of a stored post is recorded with it before the wait: the store holds the count and the next attempt's time"
    )
    func failuresAreRecordedBeforeTheWait() async throws {
        let clock = ManualClock()
        let store = EventSystem.InMemoryPostStore(clock: clock)
        let (system, register) = try registerSystem(on: store, clock: clock, policy: policy, failures: 2)

        let ticket = await register.post(PlaceOrder(number: 1))
        try await clock.waitForTimers(1) { $0.hasPrefix("the wait before attempt 2") }
        let afterOne = try #require(try await store.unfinished().first)
        #expect(afterOne.failedAttempts.map(\.number) == [1])
        #expect(afterOne.failedAttempts.first?.outcome.kind == .failed)
        #expect(afterOne.retryAfter == .seconds(10))

        await clock.advance(by: .seconds(10))
        let afterTwo = try #require(try await store.unfinished().first)
        #expect(afterTwo.failedAttempts.map(\.number) == [1, 2])
        #expect(afterTwo.failedAttempts.map(\.endedAgo) == [.seconds(10), .zero])
        #expect(afterTwo.retryAfter == .seconds(20))

        await clock.advance(by: .seconds(20))
        let outcome = await ticket.outcome
        #expect(outcome.kind == .handled && outcome.path.attempts == 3)
        #expect(await register.attempts == [0, 10, 30].map { EventSystem.Instant(offset: .seconds($0)) })
        await system.shutDown(gracePeriod: .zero)
        #expect(try await store.unfinished().isEmpty)
    }

    @Test(
        "A restart counts on from the store's failures and waits the rest of the wait: the count is not reset"
    )
    func aRestartCountsOn() async throws {
        let clock = ManualClock()
        let store = EventSystem.InMemoryPostStore(clock: clock)
        let (first, register) = try registerSystem(on: store, clock: clock, policy: policy, failures: .max)

        let ticket = await register.post(PlaceOrder(number: 1))
        try await clock.waitForTimers(1) { $0.hasPrefix("the wait before attempt 2") }
        await clock.advance(by: .seconds(10))
        try await clock.waitForTimers(1) { $0.hasPrefix("the wait before attempt 3") }
        await clock.advance(by: .seconds(5))  // 15 s of the 20 s wait before attempt 3 are left
        // The process stops during the wait: the post stays unfinished in the store.
        await first.shutDown(gracePeriod: .zero)
        #expect(await ticket.outcome.cancelledDetails?.reason == .shutdown)

        let letters = DeadLetterRecorder()
        let second = EventSystem(
            deadLetters: letters.sink, clock: clock, storage: .store(store),
            retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let again = Register(system: second, failures: .max)
        try second.register(again, as: "register")
        #expect(try await second.recoverStoredPosts() == 1)
        try await clock.waitForTimers(1) { $0.hasPrefix("the wait before attempt 3") }
        #expect(clock.nextDeadline == EventSystem.Instant(offset: .seconds(30)))
        await clock.run()
        try await letters.waitForLetters(1)

        // Attempts 3 and 4 here, at the first run's instants; then it is dead-lettered.
        #expect(await again.attempts == [30, 70].map { EventSystem.Instant(offset: .seconds($0)) })
        let letter = try #require(letters.letters.first)
        #expect(letter.outcome.path.attempts == 4)
        #expect(letter.outcome.failedError(as: Offline.self) == Offline(attempt: 2))
        #expect(letter.earlierAttempts.map(\.number) == [1, 2, 3])
        #expect(
            letter.earlierAttempts.map(\.endedAt)
                == [0, 10, 30].map { EventSystem.Instant(offset: .seconds($0)) })
        #expect(letter.earlierAttempts.prefix(2).allSatisfy { $0.outcome.kind == .failed })
        await second.shutDown(gracePeriod: .zero)  // every end recorded is in the store once it returns
        #expect(try await store.outcome(of: ticket.eventID)?.kind == .failed)
    }

    @Test(
        "An attempt whose lease a store's fence found lost uses up no try: it is neither recorded nor tried again here"
    )
    func lostLeaseUsesNoTry() async throws {
        let store = EventSystem.InMemoryPostStore()
        let system = EventSystem(
            storage: .shared(store), retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let fenced = Locked<[EventSystem.Lease?]>([])
        let desk = ScriptedResponder("desk", root: true, system: system) { _ in
            .init(
                [
                    .perform { _, context in
                        // What a store's fenced write does when the key's lease is another's.
                        let lease = EventSystem.Lease.fix(delivering: context.eventID)
                        fenced.withLock { $0.append(lease) }
                        EventSystem.Lease.lost(delivering: context.eventID)
                    }
                ], throwing: Offline(attempt: 1))
        }
        try system.register(desk, as: "register")
        system.startConsuming()

        let ticket = await desk.post(PlaceOrder(number: 1))
        let outcome = await ticket.outcome
        await system.shutDown(gracePeriod: .seconds(10))

        #expect(outcome.kind == .failed && outcome.path.attempts == 1)  // tried once, not again
        #expect(fenced.withLock { $0.count } == 1 && fenced.withLock { $0.first ?? nil } != nil)
        let letter = try #require(try await store.deadLetters(matching: .all).first)
        #expect(letter.post.failedAttempts.isEmpty)  // nothing recorded
    }

    @Test("A failure recorded under a lease that is no longer current is refused, like a finish")
    func failureUnderALapsedLeaseIsRefused() async throws {
        let store = EventSystem.InMemoryPostStore()
        let id = EventID()
        _ = try await store.store([
            EventSystem.StoredPost(
                id: id, key: "k", entry: "register", payload: .event(PlaceOrder(number: 1)))
        ])
        let lease = try #require(try await store.claim(limit: 10).first?.lease)
        store.expireLeases()
        let current = try #require(try await store.claim(limit: 10).first?.lease)
        let failure = { (lease: EventSystem.Lease) in
            EventSystem.StoredPost.Failure(
                id: id, number: 1, outcome: EventSystem.StoredOutcome(kind: .failed, description: "offline"),
                retryAfter: .seconds(1), lease: lease)
        }

        try await store.recordFailure(failure(lease))
        #expect(store.refusedFinishes == 1)
        #expect(try await store.unfinished().first?.failedAttempts.isEmpty == true)
        try await store.recordFailure(failure(current))
        #expect(try await store.unfinished().first?.failedAttempts.map(\.number) == [1])
    }
}

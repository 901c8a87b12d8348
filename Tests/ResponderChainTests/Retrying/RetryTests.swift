import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

/// A charge to take: the event the retry suites post.
private struct Charge: Event, Equatable {
    let number: Int
}

/// What ``Gateway`` throws.
private struct Declined: Error, Equatable {
    let number: Int
    let attempt: Int
}

/// A root that handles ``Charge``: it throws `Declined` for a charge's first `failures[number]`
/// attempts (every attempt when the number is absent and `failsForever`), handles it after,
/// and writes down the instant of each attempt, on its system's clock.
private actor Gateway: Responder {
    private(set) var system: EventSystem
    private let failures: [Int: Int]
    private let failsForever: Bool
    private(set) var attempts: [Int: [EventSystem.Instant]] = [:]

    init(system: EventSystem = .default, failures: [Int: Int] = [:], failsForever: Bool = false) {
        self.system = system
        self.failures = failures
        self.failsForever = failsForever
    }

    var eventSystem: EventSystem { system }
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    /// Moves the gateway to `system` (made after it, with its identity in a policy).
    func use(_ system: EventSystem) { self.system = system }

    func attempt(_ charge: Charge) throws -> Disposition {
        attempts[charge.number, default: []].append(system.now)
        let made = attempts[charge.number]!.count
        if made <= failures[charge.number] ?? (failsForever ? .max : 0) {
            throw Declined(number: charge.number, attempt: made)
        }
        return .handled
    }

    static let strategies = Strategies<Gateway> {
        $0.on(Charge.self) { gateway, charge, _ in try gateway.attempt(charge) }
    }
}

/// The instants at which a policy tries the event `id`, first posted at `start`, `count` times:
/// each wait as the policy computes it, one after the other.
private func schedule(
    of policy: EventSystem.RetryPolicy, id: EventID, from start: EventSystem.Instant, attempts count: Int
) -> [EventSystem.Instant] {
    var instants = [start]
    for attempt in stride(from: 2, through: count, by: 1) {
        instants.append(instants.last! + policy.backoff(before: attempt, of: id))
    }
    return instants
}

@Suite("Retries", .timeLimit(.minutes(5)))
struct RetryTests {
    @Test(
        "A policy's waits start at the initial backoff, multiply, stop at the cap, and stay within the jitter"
    )
    func backoffFollowsThePolicy() {
        let id = EventID(epoch: 7, sequence: 42)
        let exact = EventSystem.RetryPolicy(
            initialBackoff: .seconds(1), multiplier: 2, maximumBackoff: .seconds(300), jitter: 0)
        let waits = (2...12).map { exact.backoff(before: $0, of: id) }
        #expect(waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300].map { Duration.seconds($0) })
        #expect(exact.backoff(before: 1, of: id) == .zero)
        #expect(exact.backoff(before: .max, of: id) == .seconds(300))

        let jittered = EventSystem.RetryPolicy(jitter: 0.1, seed: 99)
        let spread = (0..<500).map {
            jittered.backoff(before: 3, of: EventID(epoch: 1, sequence: UInt64($0)))
        }
        #expect(spread.allSatisfy { $0 >= .milliseconds(1_800) && $0 <= .milliseconds(2_200) })
        #expect(Set(spread).count > 400)  // drawn, not constant
        #expect(spread.min()! < .milliseconds(1_850) && spread.max()! > .milliseconds(2_150))
        // The same policy, event and attempt: the same wait, wherever it is computed.
        #expect(jittered.backoff(before: 3, of: id) == jittered.backoff(before: 3, of: id))
        var reseeded = jittered
        reseeded.seed = 100
        #expect(reseeded.backoff(before: 3, of: id) != jittered.backoff(before: 3, of: id))
    }

    @Test("Values out of range are brought to the nearest one allowed")
    func outOfRangeValuesAreClamped() {
        var policy = EventSystem.RetryPolicy(
            maximumAttempts: 0, initialBackoff: .seconds(-1), multiplier: 0.5, maximumBackoff: .seconds(-5),
            jitter: 3)
        #expect(policy.maximumAttempts == 1)
        #expect(policy.initialBackoff == .zero)
        #expect(policy.multiplier == 1)
        #expect(policy.maximumBackoff == .zero)
        #expect(policy.jitter == 0.5)
        policy.multiplier = .nan
        policy.jitter = -1
        #expect(policy.multiplier == 1 && policy.jitter == 0)
    }

    @Test(
        "Only failed, timed-out and interrupted outcomes are retried, and only those the policy names",
        arguments: [
            Set<EventSystem.RetryPolicy.Condition>([.failed, .timedOut, .interrupted]), [.failed], [],
        ])
    func retriedOutcomes(conditions: Set<EventSystem.RetryPolicy.Condition>) {
        let policy = EventSystem.RetryPolicy(retrying: conditions)
        let path = Outcome.Path(eventID: EventID(), hops: 1, handlers: [])
        let here = ResponderID(objectID: ObjectIdentifier(Charge.self as Any.Type), label: "here")
        let stop = Outcome.Stop(
            path: path, responder: here, hop: 1, whileHandling: true, reason: .deadlinePassed)
        let outcomes: [(Outcome, EventSystem.RetryPolicy.Condition?)] = [
            (
                .failed(
                    Outcome.Failure(
                        path: path, error: Declined(number: 0, attempt: 1), responder: here, hop: 1)), .failed
            ),
            (.timedOut(stop), .timedOut),
            (.interrupted(Outcome.Interruption(path: path, lastReached: here)), .interrupted),
            (.handled(Outcome.Handled(path: path, stoppedAt: here)), nil),
            (.unhandled(Outcome.Unhandled(path: path, root: here)), nil),
            (.cancelled(stop), nil),
            (.rejected(Outcome.Rejection(path: path, sender: here, reason: .wouldDeadlock)), nil),
            (.cycleDetected(Outcome.Cycle(path: path, repeated: here, closedBy: here)), nil),
        ]
        for (outcome, condition) in outcomes {
            #expect(
                policy.retries(outcome) == (condition.map(conditions.contains) ?? false), "\(outcome.kind)")
        }
    }

    @Test("A post that fails twice is tried again at the policy's instants and ends handled after 3 attempts")
    func postSucceedsOnItsThirdAttempt() async throws {
        let policy = EventSystem.RetryPolicy(initialBackoff: .seconds(1), seed: 5)
        let store = TestStore(retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let gateway = Gateway(system: store.system, failures: [1: 2])

        let ticket = await gateway.post(Charge(number: 1))
        try await store.clock.waitForTimers(1)
        #expect(await store.run() == 2)
        let outcome = try #require(await store.receiveOutcome(of: ticket))

        #expect(outcome.kind == .handled)
        #expect(outcome.path.attempts == 3)
        let expected = schedule(of: policy, id: ticket.eventID, from: .init(offset: .zero), attempts: 3)
        #expect(await gateway.attempts[1] == expected)
        await store.finish()
    }

    @Test(
        "A post that keeps failing is dead-lettered after its last attempt, with every earlier attempt and its time"
    )
    func exhaustedPostIsDeadLetteredWithItsHistory() async throws {
        let policy = EventSystem.RetryPolicy(maximumAttempts: 4, initialBackoff: .milliseconds(500), seed: 1)
        let store = TestStore(retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let gateway = Gateway(system: store.system, failsForever: true)

        let ticket = await gateway.post(Charge(number: 7))
        try await store.clock.waitForTimers(1)
        #expect(await store.run() == 3)
        let letter = try #require(await store.receiveDeadLetter(.failed, of: Charge.self))
        let outcome = try #require(await store.receiveOutcome(of: ticket))

        #expect(outcome.path.attempts == 4)
        #expect(outcome.failedError(as: Declined.self) == Declined(number: 7, attempt: 4))
        #expect(letter.outcome.path.attempts == 4)
        #expect(letter.earlierAttempts.map(\.number) == [1, 2, 3])
        #expect(
            letter.earlierAttempts.map { $0.outcome.failedError(as: Declined.self)?.attempt } == [1, 2, 3])
        let instants = schedule(of: policy, id: ticket.eventID, from: .init(offset: .zero), attempts: 4)
        #expect(letter.earlierAttempts.map(\.endedAt) == Array(instants.prefix(3)))
        #expect(await gateway.attempts[7] == instants)
        await store.finish()
    }

    @Test("A retry is not made when it would begin at or after the post's deadline: the last failure ends it")
    func noRetryPastTheDeadline() async throws {
        let policy = EventSystem.RetryPolicy(initialBackoff: .seconds(1), multiplier: 2, jitter: 0)
        let store = TestStore(retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let gateway = Gateway(system: store.system, failsForever: true)

        // Attempts at 0, 1 and 3 s; the next would be at 7 s, past the deadline at 6 s.
        let ticket = await gateway.post(Charge(number: 1), options: SendOptions(timeout: .seconds(6)))
        try await store.clock.waitForTimers(1) { $0.hasPrefix("the wait before attempt 2") }
        await store.advance(by: .seconds(5))
        let outcome = try #require(await store.receiveOutcome(of: ticket))
        _ = await store.receiveDeadLetter(.failed, of: Charge.self)

        #expect(outcome.path.attempts == 3)
        #expect(outcome.failedError(as: Declined.self)?.attempt == 3)
        #expect(await gateway.attempts[1] == [0, 1, 3].map { EventSystem.Instant(offset: .seconds($0)) })
        await store.finish()
    }

    @Test(
        "A ticket cancelled while its post waits for a retry ends it cancelled at once, and the next post goes on"
    )
    func cancelledWhileWaiting() async throws {
        let policy = EventSystem.RetryPolicy(initialBackoff: .seconds(10))
        let store = TestStore(retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let gateway = Gateway(system: store.system, failures: [1: 5])

        let first = await gateway.post(Charge(number: 1))
        let second = await gateway.post(Charge(number: 2))
        try await store.clock.waitForTimers(1)  // the first attempt failed; its retry waits
        first.cancel()
        let cancelled = try #require(await store.receiveOutcome(of: first)?.cancelledDetails)
        let handled = try #require(await store.receiveOutcome(of: second))

        #expect(cancelled.reason == .ticketCancelled)
        #expect(cancelled.path.attempts == 1)
        #expect(handled.kind == .handled)
        #expect(await gateway.attempts[1]?.count == 1)
        #expect(store.clock.pendingTimerCount == 0)
        await store.finish()
    }

    @Test("Retries keep strict order: a post behind a retried one in its lane waits until it has ended")
    func laneWaitsForTheRetriedPost() async throws {
        let policy = EventSystem.RetryPolicy(initialBackoff: .seconds(1), jitter: 0)
        let store = TestStore(retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let gateway = Gateway(system: store.system, failures: [1: 2])

        let first = await gateway.post(Charge(number: 1), key: "card-1")
        let second = await gateway.post(Charge(number: 2), key: "card-1")
        let elsewhere = await gateway.post(Charge(number: 3), key: "card-2")
        #expect(await store.receiveOutcome(of: elsewhere)?.kind == .handled)
        try await store.clock.waitForTimers(1)  // the first failed, and waits for its retry
        #expect(await gateway.attempts[2] == nil)  // behind it
        await store.run()
        #expect(await store.receiveOutcome(of: first)?.path.attempts == 3)
        #expect(await store.receiveOutcome(of: second)?.kind == .handled)
        #expect(await gateway.attempts[2] == [.init(offset: .seconds(3))])
        await store.finish()
    }

    @Test("An awaited send is retried only when its own options carry a policy")
    func awaitedSendRetriesOnlyWithItsOwnPolicy() async throws {
        let store = TestStore(retryPolicies: EventSystem.RetryPolicies(standard: .default))
        let gateway = Gateway(system: store.system, failures: [1: 1, 2: 1])

        let once = await store.send(Charge(number: 1), from: gateway)
        #expect(once.path.attempts == 1 && once.kind == .failed)

        var options = SendOptions()
        options.retryPolicy = EventSystem.RetryPolicy(initialBackoff: .seconds(2), jitter: 0)
        async let retried = store.send(Charge(number: 2), from: gateway, options: options)
        try await store.clock.waitForTimers(1)
        await store.advance(by: .seconds(2))
        let outcome = await retried
        #expect(outcome.kind == .handled && outcome.path.attempts == 2)
        #expect(await gateway.attempts[2] == [.init(offset: .zero), .init(offset: .seconds(2))])
        await store.finish()
    }

    @Test(
        "A day of retries for 1,000 posts runs in virtual time, each attempt at exactly the policy's instant")
    func aDayOfRetriesInVirtualTime() async throws {
        // 5 min doubling to a 6 h cap, ten attempts: about a day from the first to the last.
        let policy = EventSystem.RetryPolicy(
            maximumAttempts: 10, initialBackoff: .seconds(300), multiplier: 2,
            maximumBackoff: .seconds(21_600),
            jitter: 0.1, seed: 2026)
        let store = TestStore(exhaustivity: .off, retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let gateway = Gateway(system: store.system, failsForever: true)
        let count = 1_000

        var tickets: [Ticket] = []
        for number in 0..<count {
            tickets.append(
                await gateway.post(Charge(number: number), key: EventSystem.OrderingKey("card-\(number)")))
        }
        try await store.clock.waitForTimers(count)  // every first attempt has failed
        let started = ContinuousClock.now
        let fired = await store.run()
        let elapsed = ContinuousClock.now - started

        #expect(fired == count * 9)
        var last = EventSystem.Instant(offset: .zero)
        for (number, ticket) in tickets.enumerated() {
            let outcome = await ticket.outcome
            #expect(outcome.path.attempts == 10)
            let expected = schedule(of: policy, id: ticket.eventID, from: .init(offset: .zero), attempts: 10)
            #expect(await gateway.attempts[number] == expected)
            last = max(last, expected.last!)
        }
        #expect(last > .init(offset: .seconds(20 * 3_600)) && store.clock.now == last)
        // Not a timing assertion (the benchmarks measure): printed for the record.
        print("1,000 posts × 10 attempts over \(last): \(fired) retries fired in \(elapsed)")
        await store.finish()
    }

    @Test(
        "The policy is the post's own, then its failing responder's, then its event type's, then the standard one",
        arguments: [(levels: 0, attempts: 1), (1, 2), (2, 3), (3, 4), (4, 5)])
    func policyLookupOrder(levels: Int, attempts expected: Int) async throws {
        func policy(_ attempts: Int) -> EventSystem.RetryPolicy {
            EventSystem.RetryPolicy(maximumAttempts: attempts, initialBackoff: .seconds(1))
        }
        let gateway = Gateway(failsForever: true)
        var policies = EventSystem.RetryPolicies()
        if levels >= 1 { policies.standard = policy(2) }
        if levels >= 2 { policies[Charge.self] = policy(3) }
        if levels >= 3 { policies[responder: ResponderID(gateway)] = policy(4) }
        // Names another type and responder: never chosen.
        policies[Ping.self] = policy(9)
        policies[responder: ResponderID(Gateway())] = policy(9)
        var options = SendOptions()
        if levels >= 4 { options.retryPolicy = policy(5) }
        let store = TestStore(retryPolicies: policies)
        await gateway.use(store.system)

        let ticket = await gateway.post(Charge(number: 1), options: options)
        if expected > 1 {
            try await store.clock.waitForTimers(1)
            await store.run()
        }
        let outcome = try #require(await store.receiveOutcome(of: ticket))
        _ = await store.receiveDeadLetter(.failed, of: Charge.self)

        #expect(outcome.path.attempts == expected)
        #expect(await gateway.attempts[1]?.count == expected)
        await store.finish()
    }
}

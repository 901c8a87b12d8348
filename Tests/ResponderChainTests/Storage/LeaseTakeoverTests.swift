import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

/// A shared store in front of an in-memory one that knows each key's current lease (the latest
/// a claim gave: every claim of a key gives a larger token) and counts the claims begun, so
/// that a desk can fence its effects as a store's inbox does. A claim may be held on a gate
/// after it took its keys, before it returns them. The calls it does not declare go on to `inner`.
final class FencingStore: ForwardingPostStore, EventSystem.SharedPostStore {
    let inner = EventSystem.InMemoryPostStore()
    private let state = Locked<(current: [String: Int64], claimsBegun: Int, claimGate: Gate?)>(([:], 0, nil))

    /// Holds the next claim on `gate` once it has taken its keys.
    func holdNextClaim(on gate: Gate) { state.withLock { $0.claimGate = gate } }

    /// How many claims have begun.
    var claimsBegun: Int { state.withLock { $0.claimsBegun } }

    /// The token of `key`'s current lease, if it was ever claimed.
    func currentToken(of key: String) -> Int64? { state.withLock { $0.current[key] } }

    /// Whether `lease` is its key's current lease.
    func isCurrent(_ lease: EventSystem.Lease) -> Bool { currentToken(of: lease.key.name) == lease.token }

    func claim(limit: Int) async throws -> [EventSystem.StoredPost] {
        state.withLock { $0.claimsBegun += 1 }
        let posts = try await inner.claim(limit: limit)
        let gate = state.withLock { state in
            for lease in posts.compactMap(\.lease) { state.current[lease.key.name] = lease.token }
            defer { state.claimGate = nil }
            return state.claimGate
        }
        try await gate?.pass()
        return posts
    }

    func release(_ leases: [EventSystem.Lease]) async throws { try await inner.release(leases) }
    func signals() -> AsyncStream<EventSystem.StoreSignal> { inner.signals() }
}

/// The effects a fenced desk applied, per key in the order applied, and the writes its fence
/// refused.
final class FencedEffects: Sendable {
    private let state = Locked<(applied: [String: [Int]], refused: Int)>(([:], 0))

    var applied: [String: [Int]] { state.withLock { $0.applied } }
    var refused: Int { state.withLock { $0.refused } }

    func apply(_ work: KeyedWork) { state.withLock { $0.applied[work.key, default: []].append(work.number) } }
    func refuse() { state.withLock { $0.refused += 1 } }
}

/// A desk whose handler applies a work's effect only while the lease the work is delivered
/// under is its key's current one, as a store's fenced inbox does; it may park on a gate first.
actor FencedDesk: Responder {
    struct LostLease: Error {}

    nonisolated let eventSystem: EventSystem
    let store: FencingStore
    let effects: FencedEffects
    /// Gates by work number, passed before the fenced write.
    let gates: [Int: Gate]
    /// Gates by work number, passed after a refused write, before the handler throws.
    let refusedGates: [Int: Gate]

    init(
        store: FencingStore, effects: FencedEffects, gates: [Int: Gate], refusedGates: [Int: Gate] = [:],
        system: EventSystem
    ) {
        self.store = store
        self.effects = effects
        self.gates = gates
        self.refusedGates = refusedGates
        self.eventSystem = system
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<FencedDesk> {
        $0.on(KeyedWork.self) { desk, work, context in
            if let gate = desk.gates[work.number] { try await gate.pass() }
            guard let lease = EventSystem.Lease.fix(delivering: context.eventID),
                desk.store.isCurrent(lease)
            else {
                desk.effects.refuse()
                if let gate = desk.refusedGates[work.number] { try await gate.pass() }
                throw LostLease()
            }
            desk.effects.apply(work)
            return .handled
        }
    }
}

@Suite("A key claimed again while its posts are still held", .timeLimit(.minutes(1)))
struct LeaseTakeoverTests {
    let store = FencingStore()
    let effects = FencedEffects()

    /// Posts `numbers` on key "k", stored before anyone consumes them.
    func post(_ numbers: ClosedRange<Int>, from desk: FencedDesk) async -> [Ticket] {
        var tickets: [Ticket] = []
        for number in numbers {
            tickets.append(await desk.post(KeyedWork(key: "k", number: number), key: "k"))
        }
        return tickets
    }

    /// A consumer of the store, its desk registered as "desk" and parking each post at its gate
    /// in `gates` (post 1 at `first`), that starts consuming `numbers`, posted on key "k" before it
    /// starts: returns once it has claimed them all under lease 1 and post 1 is being delivered,
    /// parked at `first`.
    func consumer(
        delivering numbers: ClosedRange<Int>, firstParkedAt first: Gate, gates: [Int: Gate] = [:],
        refusedGates: [Int: Gate] = [:]
    ) async throws -> (EventSystem, FencedDesk, [Ticket]) {
        let system = EventSystem(storage: .shared(store))
        let desk = FencedDesk(
            store: store, effects: effects, gates: gates.merging([1: first]) { _, first in first },
            refusedGates: refusedGates, system: system)
        try system.register(desk, as: "desk")
        let tickets = await post(numbers, from: desk)
        system.startConsuming(claimingUpTo: 16, pollInterval: .seconds(3600))
        try await first.waitForArrivals(1)
        return (system, desk, tickets)
    }

    /// Waits until the consumer has handed its latest claim to its post office: it begins the
    /// next claim (woken by a post on another key) only after that.
    func waitForTheClaimToBeQueued(from desk: FencedDesk, number: Int) async throws {
        let begun = store.claimsBegun
        _ = await desk.post(KeyedWork(key: "other", number: number), key: "other")
        try await waitUntil("the consumer began its next claim") { store.claimsBegun > begun }
    }

    /// Wakes the consumer (with post 1 on another key) and waits until it has claimed key "k"
    /// again, under lease `token`, and handed that claim to its post office.
    func waitForTheKeyToBeClaimedAgain(from desk: FencedDesk, token: Int64) async throws {
        _ = await desk.post(KeyedWork(key: "other", number: 1), key: "other")
        try await waitUntil("this consumer claimed the key again") { store.currentToken(of: "k") == token }
        try await waitForTheClaimToBeQueued(from: desk, number: 2)
    }

    /// Waits until `count` effects on key "k", and the two posts on the other key, are applied.
    func waitForEffects(_ count: Int, in system: EventSystem) async throws {
        try await waitUntil("every effect applied", observing: system) {
            effects.applied["k", default: []].count >= count
                && effects.applied["other", default: []].count >= 2
        }
    }

    @Test(
        "a post it still holds ahead of posts it delivers again is left to the key's next claim: the effects stay in post order"
    )
    func heldPostsBehindPostsDeliveredAgainWaitForTheNextClaim() async throws {
        let first = Gate()
        let third = Gate()
        // 1…5 claimed under lease 1; 1 is being delivered
        let (system, desk, posted) = try await consumer(
            delivering: 1...5, firstParkedAt: first, gates: [3: third])
        var tickets = posted
        #expect(store.currentToken(of: "k") == 1)
        store.inner.expireLeases()  // the lease lapses, and another consumer takes the key
        let takenOver = try await store.claim(limit: 16)
        #expect(takenOver.map(\.lease?.token) == Array(repeating: 2, count: 5))
        first.open()  // 1 and 2 are refused (the key is another's); 3 stops at its gate
        try await third.waitForArrivals(1)
        #expect(effects.refused == 2)
        tickets += await post(6...6, from: desk)  // posted meanwhile: the other consumer holds the key
        store.inner.expireLeases()  // the other consumer's lease lapses in turn
        // This consumer's claim returns 1…6: 1 and 2 are queued again; 3 (being delivered), 4 and
        // 5 (queued behind it) are held under lease 1, out of order now; 6 must not pass them.
        try await waitForTheKeyToBeClaimedAgain(from: desk, token: 3)
        third.open()
        try await waitForEffects(6, in: system)
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(effects.applied["k"] == [1, 2, 3, 4, 5, 6])
        #expect(try await store.unfinished().isEmpty)
        for ticket in tickets { #expect(try await store.outcome(of: ticket.eventID)?.kind == .handled) }
    }

    @Test(
        "a later claim that finds posts queued again behind a post still held keeps them in lane order: the effects stay in post order"
    )
    func postsQueuedAgainStayBehindTheHeldPostAtTheNextClaim() async throws {
        let first = Gate()
        let third = Gate()
        // 1…4 claimed under lease 1; 1 is being delivered
        let (system, desk, tickets) = try await consumer(
            delivering: 1...4, firstParkedAt: first, gates: [3: third])
        store.inner.expireLeases()  // the lease lapses, and another consumer takes the key
        _ = try await store.claim(limit: 16)
        first.open()  // 1 and 2 are refused; 3 stops at its gate
        try await third.waitForArrivals(1)
        store.inner.expireLeases()
        // Lease 3: 1 and 2 are queued again, behind 3 (being delivered) and 4, held under lease 1.
        try await waitForTheKeyToBeClaimedAgain(from: desk, token: 3)
        store.inner.expireLeases()
        // Lease 4: the claim's order is 1, 2, 3, 4, the lane's 3, 4, 1, 2: 3 and 4 must not move.
        _ = await desk.post(KeyedWork(key: "other", number: 3), key: "other")  // wakes the consumer
        try await waitUntil("this consumer claimed the key again") { store.currentToken(of: "k") == 4 }
        try await waitForTheClaimToBeQueued(from: desk, number: 4)
        third.open()
        try await waitUntil("every effect applied", observing: system) {
            effects.applied["k", default: []].count >= 4 && effects.applied["other", default: []].count >= 4
        }
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(effects.applied["k"] == [1, 2, 3, 4])
        #expect(try await store.unfinished().isEmpty)
        for ticket in tickets { #expect(try await store.outcome(of: ticket.eventID)?.kind == .handled) }
    }

    @Test("the posts it still holds in order move to the new lease: nothing is refused or delivered twice")
    func heldPostsInOrderMoveToTheNewLease() async throws {
        let first = Gate()
        // 1…3 claimed under lease 1; 1 is being delivered
        let (system, desk, tickets) = try await consumer(delivering: 1...3, firstParkedAt: first)
        store.inner.expireLeases()  // the lease lapses, and nobody else claims the key
        try await waitForTheKeyToBeClaimedAgain(from: desk, token: 2)
        first.open()
        try await waitForEffects(3, in: system)
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(effects.applied["k"] == [1, 2, 3])
        #expect(effects.refused == 0)
        #expect(store.inner.refusedFinishes == 0)
        for ticket in tickets { #expect(await ticket.outcome.kind == .handled) }
        #expect(try await store.unfinished().isEmpty)
    }

    @Test(
        "a post whose write was refused under the earlier lease stays under it: it ends unfinished and comes back, never recorded without its effect"
    )
    func aRefusedPostIsNotMovedToTheNewLease() async throws {
        let first = Gate()
        let refused = Gate()
        let claimHeld = Gate()
        // 1 and 2 claimed under lease 1; 1 is being delivered
        let (system, desk, tickets) = try await consumer(
            delivering: 1...2, firstParkedAt: first, refusedGates: [1: refused])
        store.inner.expireLeases()
        store.holdNextClaim(on: claimHeld)
        _ = await desk.post(KeyedWork(key: "other", number: 1), key: "other")  // wakes the consumer
        try await claimHeld.waitForArrivals(1)  // it took the key again (lease 2), not yet queued
        try #require(store.currentToken(of: "k") == 2)
        first.open()  // 1's write is checked against lease 1 and refused; its handler waits
        try await refused.waitForArrivals(1)
        claimHeld.open()  // the claim reaches the post office while 1 is still being delivered
        try await waitForTheClaimToBeQueued(from: desk, number: 2)
        refused.open()
        try await waitUntil("both posts finished, and the others' effects applied", observing: system) {
            for ticket in tickets where (try? await store.outcome(of: ticket.eventID)) == nil { return false }
            return effects.applied["other", default: []].count >= 2
        }
        await system.shutDown(gracePeriod: .seconds(30))
        #expect(effects.applied["k"] == [1, 2])
        for ticket in tickets { #expect(try await store.outcome(of: ticket.eventID)?.kind == .handled) }
        #expect(try await store.unfinished().isEmpty)
    }
}

import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

/// An event of one ordering key, numbered in post order within it.
struct KeyedWork: Event, Equatable {
    let key: String
    let number: Int
}

/// What every consumer of one shared store handled, and a check that no key was handled by two
/// handlers at once.
final class HandlingLog: Sendable {
    private struct State {
        var handled: [String: [Int]] = [:]
        var byConsumer: [String: Int] = [:]
        var inFlight: Set<String> = []
        var overlaps = 0
    }

    private let state = Locked(State())

    func begin(_ work: KeyedWork) {
        state.withLock { state in
            if !state.inFlight.insert(work.key).inserted { state.overlaps += 1 }
        }
    }

    func end(_ work: KeyedWork, by consumer: String) {
        state.withLock { state in
            state.inFlight.remove(work.key)
            state.handled[work.key, default: []].append(work.number)
            state.byConsumer[consumer, default: 0] += 1
        }
    }

    var handled: [String: [Int]] { state.withLock { $0.handled } }
    var byConsumer: [String: Int] { state.withLock { $0.byConsumer } }
    var overlaps: Int { state.withLock { $0.overlaps } }
    var count: Int { state.withLock { $0.handled.values.reduce(0) { $0 + $1.count } } }
}

/// A consumer's desk: handles ``KeyedWork``, suspending in the middle so that two consumers
/// would overlap if they could, optionally parking on a gate first.
actor WorkDesk: Responder {
    nonisolated let eventSystem: EventSystem
    let name: String
    let log: HandlingLog
    let gate: Gate?

    init(_ name: String, log: HandlingLog, gate: Gate? = nil, system: EventSystem) {
        self.name = name
        self.log = log
        self.gate = gate
        self.eventSystem = system
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<WorkDesk> {
        $0.on(KeyedWork.self) { desk, work, _ in
            desk.log.begin(work)
            if let gate = desk.gate { try await gate.pass() }
            await Task.yield()
            desk.log.end(work, by: desk.name)
            return .handled
        }
    }
}

@Suite("Shared consumption", .timeLimit(.minutes(1)))
struct SharedConsumptionTests {
    /// The store every consumer of a test shares.
    let store = EventSystem.InMemoryPostStore()
    /// What every consumer of a test handled.
    let log = HandlingLog()

    /// A consumer of the shared store, not yet consuming: a system whose desk, named `name` and
    /// writing to the shared log, is registered as "desk".
    func consumer(_ name: String, gate: Gate? = nil) throws -> (EventSystem, WorkDesk) {
        let system = EventSystem(storage: .shared(store))
        let desk = WorkDesk(name, log: log, gate: gate, system: system)
        try system.register(desk, as: "desk")
        return (system, desk)
    }

    /// A consumer named `name` (see ``consumer(_:gate:)``) that starts consuming and is posted
    /// work `number` on key "k": returns once it holds the key, its handler of that post parked
    /// at `gate`.
    func consumer(
        _ name: String, handling number: Int, parkedAt gate: Gate
    ) async throws -> (EventSystem, WorkDesk, Ticket) {
        let (system, desk) = try consumer(name, gate: gate)
        system.startConsuming()
        let ticket = await desk.post(KeyedWork(key: "k", number: number), key: "k")
        try await gate.waitForArrivals(1)
        return (system, desk, ticket)
    }

    @Test(
        "posts shared by two consumers are each handled once, a key by one consumer at a time, in post order")
    func twoConsumersShareTheWork() async throws {
        let (first, firstDesk) = try consumer("first")
        let (second, _) = try consumer("second")
        first.startConsuming(claimingUpTo: 8)
        second.startConsuming(claimingUpTo: 8)
        let keys = (0..<10).map { "order-\($0)" }
        var tickets: [Ticket] = []
        for number in 0..<30 {
            for key in keys {
                tickets.append(
                    await firstDesk.post(
                        KeyedWork(key: key, number: number), key: EventSystem.OrderingKey(key)))
            }
        }
        try await waitUntil("300 posts handled") { log.count >= 300 }
        #expect(log.count == 300)
        try #require(log.overlaps == 0)
        for key in keys { try #require(log.handled[key] == Array(0..<30), "\(key)") }
        for ticket in tickets { #expect(await ticket.outcome.kind == .handled) }
        // A ticket ends before its end is written; a shutdown writes every end first.
        await first.shutDown(gracePeriod: .seconds(30))
        await second.shutDown(gracePeriod: .seconds(30))
        #expect(try await store.unfinished().isEmpty)
    }

    @Test("a post another consumer handled ends its poster's ticket with that consumer's outcome")
    func aTicketEndsWithTheOutcomeRecordedElsewhere() async throws {
        let (poster, desk) = try consumer("poster")
        let (worker, _) = try consumer("worker")
        worker.startConsuming()  // the poster does not consume: the worker delivers
        let ticket = await desk.post(KeyedWork(key: "k", number: 1), key: "k")
        let outcome = await ticket.outcome
        let handled = try #require(outcome.handledDetails)
        #expect(handled.stoppedAt.label == "another consumer")
        #expect(outcome.hops == 1)
        #expect(outcome.description == "handled by another consumer after 1 hop")
        #expect(log.byConsumer == ["worker": 1])
        #expect(try await store.outcome(of: ticket.eventID)?.kind == .handled)
        await poster.shutDown(gracePeriod: .seconds(30))
        await worker.shutDown(gracePeriod: .seconds(30))
    }

    @Test("a consumer whose lease was taken over cannot finish the post: the new owner's outcome stands")
    func aLateFinishIsRefusedByTheFence() async throws {
        let frozen = Gate()
        // The slow consumer holds the key, mid-handler.
        let (slow, _, ticket) = try await consumer("slow", handling: 1, parkedAt: frozen)
        store.expireLeases()  // its lease runs out, as if it had stopped renewing
        let (fast, _) = try consumer("fast")
        fast.startConsuming()
        try await waitUntil("the new owner handled the post") { log.byConsumer["fast"] == 1 }
        try await waitUntil("the new owner's end is written") {
            (try? await store.outcome(of: ticket.eventID)) != nil
        }
        #expect(try await store.outcome(of: ticket.eventID)?.kind == .handled)
        frozen.open()  // the old owner wakes and ends its delivery
        _ = await ticket.outcome
        await slow.shutDown(gracePeriod: .seconds(30))
        #expect(store.refusedFinishes == 1)
        await fast.shutDown(gracePeriod: .seconds(30))
    }

    @Test("a shutdown keeps the posts no consumer claimed yet: their tickets say so, the report counts them")
    func shutdownKeepsUnclaimedPosts() async throws {
        let (poster, desk) = try consumer("poster")  // does not consume
        let ticket = await desk.post(KeyedWork(key: "k", number: 0), key: "k")
        let report = await poster.shutDown(gracePeriod: .seconds(30))
        #expect(await ticket.outcome.cancelledDetails?.reason == .keptForNextStart)
        #expect(report.kept == 1)
        #expect(try await store.unfinished().map(\.id) == [ticket.eventID])
        let (next, _) = try consumer("next")
        next.startConsuming()
        try await waitUntil("the next consumer handled the kept post") { log.byConsumer["next"] == 1 }
        await next.shutDown(gracePeriod: .seconds(30))
    }

    @Test("a shutdown keeps what it did not deliver and frees its keys at once for the next consumer")
    func shutdownReleasesItsKeys() async throws {
        let held = Gate()
        let (leaving, desk, first) = try await consumer("leaving", handling: 0, parkedAt: held)
        let second = await desk.post(KeyedWork(key: "k", number: 1), key: "k")
        let shutdown = Task { await leaving.shutDown(gracePeriod: .seconds(30)) }
        held.open()
        _ = await shutdown.value
        #expect(await first.outcome.kind == .handled)
        #expect(await second.outcome.cancelledDetails?.reason == .keptForNextStart)
        // No lease to wait out: the next consumer takes the key at once.
        let (next, _) = try consumer("next")
        next.startConsuming()
        try await waitUntil("the next consumer handled the kept post") { log.byConsumer["next"] == 1 }
        #expect(log.handled["k"] == [0, 1])
        await next.shutDown(gracePeriod: .seconds(30))
    }
}

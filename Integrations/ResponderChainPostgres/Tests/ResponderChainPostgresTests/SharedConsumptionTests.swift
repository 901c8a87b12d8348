import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting
import Synchronization
import Testing

/// The event the consumers share: number `number` of ordering key `key`, in post order within it
/// (stored as "work", as `postgres-consumer-child` reads it).
struct Work: Event, Codable, Equatable {
    let key: String
    let number: Int
}

extension StoredEvents {
    /// The events of the consumption tests.
    static func forConsumers() throws -> StoredEvents {
        var events = StoredEvents()
        try events.register(Work.self, as: "work")
        return events
    }
}

/// What every consumer in this process handled, and how often a key was in two handlers at once.
final class HandlingLog: Sendable {
    private struct State {
        var handled: [String: [Int]] = [:]
        var byConsumer: [String: Int] = [:]
        var inFlight: Set<String> = []
        var overlaps = 0
    }

    private let state = Mutex(State())

    func begin(_ work: Work) {
        state.withLock { state in
            if !state.inFlight.insert(work.key).inserted { state.overlaps += 1 }
        }
    }

    func end(_ work: Work, by consumer: String) {
        state.withLock { state in
            state.inFlight.remove(work.key)
            state.handled[work.key, default: []].append(work.number)
            state.byConsumer[consumer, default: 0] += 1
        }
    }

    var handled: [String: [Int]] { state.withLock { $0.handled } }
    var byConsumer: [String: Int] { state.withLock { $0.byConsumer } }
    var overlaps: Int { state.withLock { $0.overlaps } }
}

/// A consumer's desk: handles `Work`, suspending in the middle so that two consumers would
/// overlap on a key if they could, optionally parking on a gate first.
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
        $0.on(Work.self) { desk, work, _ in
            desk.log.begin(work)
            if let gate = desk.gate { try await gate.pass() }
            await Task.yield()
            desk.log.end(work, by: desk.name)
            return .handled
        }
    }
}

/// Two consumers in this process, each an event system on a store of its own with a client
/// (connection pool) of its own, over one database; both stores run (heartbeats, listeners).
func withTwoConsumers(
    lease: Duration = .seconds(30), log: HandlingLog, firstGate: Gate? = nil,
    _ body: (
        _ first: (system: EventSystem, desk: WorkDesk, store: PostgresPostStore),
        _ second: (system: EventSystem, desk: WorkDesk, store: PostgresPostStore)
    ) async throws -> Void
) async throws {
    try await withDatabase { firstClient, configuration in
        try await withClient(configuration) { secondClient in
            func consumer(_ name: String, _ client: PostgresClient, gate: Gate?) async throws -> (
                system: EventSystem, desk: WorkDesk, store: PostgresPostStore
            ) {
                let store = try PostgresPostStore(
                    client: client, events: try .forConsumers(), consumer: name, lease: lease,
                    logger: TestServer.quiet)
                try await store.migrate()
                let system = EventSystem(storage: .shared(store))
                let desk = WorkDesk(name, log: log, gate: gate, system: system)
                try system.register(desk, as: "desk")
                return (system, desk, store)
            }
            let first = try await consumer("first", firstClient, gate: firstGate)
            let second = try await consumer("second", secondClient, gate: nil)
            try await whileRunning(first.store) {
                try await whileRunning(second.store) {
                    try await eventually("both stores to listen") {
                        first.store.listenerProcessID != nil && second.store.listenerProcessID != nil
                            ? true : nil
                    }
                    try await body(first, second)
                }
            }
        }
    }
}

@Suite("Event systems sharing a PostgreSQL store", .timeLimit(.minutes(1)))
struct SharedConsumptionTests {
    @Test("Posts shared by two systems are each handled once, a key by one consumer at a time, in post order")
    func twoSystemsShareTheWork() async throws {
        let log = HandlingLog()
        try await withTwoConsumers(log: log) { first, second in
            first.system.startConsuming(claimingUpTo: 8, pollInterval: .milliseconds(200))
            second.system.startConsuming(claimingUpTo: 8, pollInterval: .milliseconds(200))
            let keys = (0..<8).map { "order-\($0)" }
            var tickets: [Ticket] = []
            for number in 0..<25 {
                for key in keys {
                    tickets.append(
                        await first.desk.post(
                            Work(key: key, number: number), key: EventSystem.OrderingKey(key)))
                }
            }
            for ticket in tickets { #expect(await ticket.outcome.kind == .handled) }
            #expect(log.handled.values.reduce(0) { $0 + $1.count } == 200)
            #expect(log.overlaps == 0)
            for key in keys { #expect(log.handled[key] == Array(0..<25), "\(key)") }
            print("measured: handled by consumer \(log.byConsumer)")
            await first.system.shutDown(gracePeriod: .seconds(30))
            await second.system.shutDown(gracePeriod: .seconds(30))
            // A ticket ends before its finish is written; a shutdown writes every end first.
            let unfinished = try await first.store.unfinished()
            #expect(unfinished.isEmpty)
        }
    }

    @Test(
        "A post made in a system that does not consume is delivered by the other, and its ticket ends handled"
    )
    func aTicketEndsWithTheOtherConsumersOutcome() async throws {
        let log = HandlingLog()
        try await withTwoConsumers(log: log) { poster, worker in
            worker.system.startConsuming(pollInterval: .milliseconds(200))
            let ticket = await poster.desk.post(Work(key: "k", number: 1), key: "k")
            let outcome = await ticket.outcome
            #expect(outcome.kind == .handled)
            #expect(outcome.handledDetails?.stoppedAt.label == "another consumer")
            #expect(log.byConsumer == ["second": 1])
            let stored = try await poster.store.outcome(of: ticket.eventID)
            #expect(stored?.kind == .handled)
            await poster.system.shutDown(gracePeriod: .seconds(30))
            await worker.system.shutDown(gracePeriod: .seconds(30))
        }
    }

    @Test(
        "A graceful shutdown keeps its queued posts for the next start and frees its key at once for the other consumer"
    )
    func shutdownHandsTheKeyOver() async throws {
        let log = HandlingLog()
        let held = Gate()
        let lease = Duration.seconds(30)
        try await withTwoConsumers(lease: lease, log: log, firstGate: held) { leaving, staying in
            // Stored before it consumes, so that one claim takes all three under one lease.
            let first = await leaving.desk.post(Work(key: "k", number: 0), key: "k")
            let queued = [
                await leaving.desk.post(Work(key: "k", number: 1), key: "k"),
                await leaving.desk.post(Work(key: "k", number: 2), key: "k"),
            ]
            leaving.system.startConsuming(pollInterval: .milliseconds(200))
            try await held.waitForArrivals(1)  // the leaving consumer holds "k", mid-handler
            let owner = try await owners(of: ["k"], leaving.store.client)["k"]
            #expect(owner == .some("first"))
            staying.system.startConsuming(pollInterval: .seconds(60))  // signals only, no poll in time
            let shutdown = Task { await leaving.system.shutDown(gracePeriod: .seconds(30)) }
            held.open()
            _ = await shutdown.value
            let clock = ContinuousClock()
            let shutAt = clock.now
            #expect(await first.outcome.kind == .handled)
            for ticket in queued {
                #expect(await ticket.outcome.cancelledDetails?.reason == .keptForNextStart)
            }
            try await eventually("the staying consumer to handle the kept posts") {
                log.byConsumer["second"] == 2 ? true : nil
            }
            let takenAfter = shutAt.duration(to: clock.now)
            print("measured: key taken over \(takenAfter) after a graceful shutdown (lease \(lease))")
            #expect(takenAfter < lease / 10)
            #expect(log.handled["k"] == [0, 1, 2])
            #expect(log.byConsumer == ["first": 1, "second": 2])
            await staying.system.shutDown(gracePeriod: .seconds(30))
        }
    }
}

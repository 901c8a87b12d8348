import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

/// Holds connections of a client's pool for the application until ``giveBack()``.
final class PoolHog: Sendable {
    private let gate = Gate()

    /// How many connections it holds now.
    var holding: Int { gate.arrivals }

    /// Asks for `count` connections, each held until ``giveBack()``; returns when all are back.
    func hold(_ count: Int, of client: PostgresClient) async throws {
        try await withThrowingDiscardingTaskGroup { group in
            for _ in 0..<count {
                group.addTask {
                    try await client.withConnection { _ in try await self.gate.pass(within: .seconds(50)) }
                }
            }
        }
    }

    /// Gives every connection back.
    func giveBack() {
        gate.open()
    }
}

@Suite("An exhausted connection pool", .timeLimit(.minutes(1)))
struct PoolExhaustionTests {
    static let maximumConnections = 4
    static let requestTimeout = Duration.milliseconds(300)

    @Test(
        "While the application holds every connection, posts end rejected notStored and claims throw connectionUnavailable; once they are given back everything moves again and nothing is lost"
    )
    func exhaustedPool() async throws {
        try await withDatabase { _, configuration in
            var limited = configuration
            limited.options.maximumConnections = Self.maximumConnections
            try await withClient(limited) { client in
                let store = try PostgresPostStore(
                    client: client, events: try .forConsumers(), consumer: "consumer",
                    connectionRequestTimeout: Self.requestTimeout, logger: TestServer.quiet)
                // Migrated by a store with the default wait: opening the pool's first connection
                // may take longer than the short wait on a loaded machine.
                try await PostgresPostStore(
                    client: client, events: try .forConsumers(), logger: TestServer.quiet
                )
                .migrate()
                let system = EventSystem(storage: .shared(store))
                let log = HandlingLog()
                let desk = WorkDesk("consumer", log: log, system: system)
                try system.register(desk, as: "desk")
                try await whileRunning(store) {
                    try await eventually("the store to listen") { store.listenerProcessID }
                    system.startConsuming(claimingUpTo: 8, pollInterval: .milliseconds(100))
                    var accepted: [String: Int] = [:]
                    /// Posts `count` works on four keys and returns their outcomes. With the pool's
                    /// short wait, a post can be refused while the suite's other tests load the
                    /// machine (a new connection takes longer to open than the wait): refused
                    /// typed, never stored, it is posted again, at most five times.
                    func post(_ count: Int) async -> [Outcome] {
                        var outcomes: [Outcome] = []
                        for index in 0..<count {
                            let key = "order-\(index % 4)"
                            let number = accepted[key, default: 0]
                            var outcome = await desk.post(Work(key: key, number: number), key: .init(key))
                                .outcome
                            for _ in 1..<5 {
                                guard case .notStored(let reason)? = outcome.rejectedDetails?.reason,
                                    reason.contains("no connection of the client's pool came free")
                                else { break }
                                outcome = await desk.post(Work(key: key, number: number), key: .init(key))
                                    .outcome
                            }
                            if outcome.kind != .rejected { accepted[key] = number + 1 }
                            outcomes.append(outcome)
                        }
                        return outcomes
                    }
                    for outcome in await post(8) {
                        #expect(outcome.kind == .handled, "\(outcome)")
                    }
                    // Their ends and releases written (a ticket ends before its finish is).
                    try await eventually("the first posts' ends and releases to be written") {
                        let owners = try await owners(of: Array(accepted.keys), client)
                        return try await store.unfinished().isEmpty && owners.values.allSatisfy({ $0 == nil })
                            ? true : nil
                    }

                    // The application takes every connection: the listener holds one, the hog
                    // the others (its last request waits in the pool's queue).
                    let hog = PoolHog()
                    let hogging = Task { try await hog.hold(Self.maximumConnections, of: client) }
                    try await eventually("the application to hold every connection") {
                        let listening = store.listenerProcessID == nil ? 0 : 1
                        return hog.holding + listening == Self.maximumConnections ? true : nil
                    }
                    var rejected: [Ticket] = []
                    for number in 0..<3 {
                        rejected.append(await desk.post(Work(key: "refused", number: number), key: "refused"))
                    }
                    for ticket in rejected {
                        let outcome = await ticket.outcome
                        guard case .notStored(let reason)? = outcome.rejectedDetails?.reason else {
                            Issue.record("expected rejected notStored, got \(outcome)")
                            continue
                        }
                        #expect(reason.contains("no connection of the client's pool came free"), "\(reason)")
                    }
                    await #expect {
                        _ = try await store.claim(limit: 1)
                    } throws: { error in
                        guard case .connectionUnavailable(_, let waited)? = error as? PostgresPostStoreError
                        else {
                            return false
                        }
                        return waited == Self.requestTimeout
                    }

                    hog.giveBack()
                    try await hogging.value
                    for outcome in await post(8) {
                        #expect(outcome.kind == .handled, "\(outcome)")
                    }
                    for key in accepted.keys.sorted() {
                        #expect(log.handled[key] == Array(0..<accepted[key, default: 0]), "\(key)")
                    }
                    // The rejected posts were never stored: no one delivers them later.
                    for ticket in rejected { #expect(try await store.outcome(of: ticket.eventID) == nil) }
                    #expect(log.handled["refused"] == nil)
                    try await eventually("every stored post finished in the store") {
                        try await store.unfinished().isEmpty ? true : nil
                    }
                    await system.shutDown(gracePeriod: .seconds(30))
                }
            }
        }
    }
}

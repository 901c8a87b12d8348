import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Synchronization
import Testing

/// A desk that writes each work's effect (its key and number, in the order written) through the
/// store's fenced inbox, counting the writes the fence refuses; it may park on a gate first.
actor InboxDesk: Responder {
    nonisolated let eventSystem: EventSystem
    let store: PostgresPostStore
    /// Gates by work number, on key "k".
    let gates: [Int: Gate]
    let refused = Atomic(0)

    init(store: PostgresPostStore, gates: [Int: Gate], system: EventSystem) {
        self.store = store
        self.gates = gates
        self.eventSystem = system
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<InboxDesk> {
        $0.on(Work.self) { desk, work, context in
            if work.key == "k", let gate = desk.gates[work.number] { try await gate.pass() }
            do {
                try await desk.store.inbox.handleOnce(context.eventID) { connection in
                    try await connection.query(
                        "INSERT INTO effect (key, number) VALUES (\(work.key), \(work.number))",
                        logger: TestServer.quiet)
                }
            } catch {
                if case PostgresPostStoreError.lostLease = error { desk.refused.add(1, ordering: .relaxed) }
                throw error
            }
            return .handled
        }
    }
}

@Suite("The inbox keeps an effect once, and only under the current lease", .timeLimit(.minutes(1)))
struct InboxTests {
    static func effects(_ client: PostgresClient) async throws -> [Int] {
        var numbers: [Int] = []
        for try await (number, ) in try await client.query(
            "SELECT number FROM effect ORDER BY number", logger: TestServer.quiet
        ).decode((Int.self,)) {
            numbers.append(number)
        }
        return numbers
    }

    @Test("A redelivered event's effect is written once")
    func once() async throws {
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            try await client.query("CREATE TABLE effect (number bigint)", logger: TestServer.quiet)
            let post = samplePost(7)
            _ = try await store.store([post])
            let claimed = try await store.claim(limit: 1)
            #expect(claimed.count == 1)
            for _ in 0..<2 {
                try await store.inbox.handleOnce(post.id) { connection in
                    try await connection.query("INSERT INTO effect VALUES (7)", logger: TestServer.quiet)
                }
            }
            #expect(try await Self.effects(client) == [7])
            #expect(try await store.inbox.hasHandled(post.id))
        }
    }

    @Test("Under a lease another consumer took over, the inbox refuses (lostLease) and writes nothing")
    func refusedUnderLostLease() async throws {
        try await withDatabase { client, _ in
            let first = try await migratedStore(client, consumer: "first", lease: .seconds(1))
            let second = try await migratedStore(client, consumer: "second", lease: .seconds(1))
            try await client.query("CREATE TABLE effect (number bigint)", logger: TestServer.quiet)
            let post = samplePost(3, key: "order-3")
            _ = try await first.store([post])
            #expect(try await first.claim(limit: 1).count == 1)
            _ = try await eventually("the second consumer to take the key over") {
                try await second.claim(limit: 1).first
            }
            await #expect {
                try await first.inbox.handleOnce(post.id) { connection in
                    try await connection.query("INSERT INTO effect VALUES (3)", logger: TestServer.quiet)
                }
            } throws: { error in
                guard case PostgresPostStoreError.lostLease(let key, _) = error else { return false }
                return key == "order-3"
            }
            #expect(try await Self.effects(client).isEmpty)
            #expect(try await !first.inbox.hasHandled(post.id))
            let ran = try await second.inbox.handleOnce(post.id) { connection in
                try await connection.query("INSERT INTO effect VALUES (3)", logger: TestServer.quiet)
            }
            #expect(ran)
            #expect(try await Self.effects(client) == [3])
        }
    }

    @Test(
        "A post still held under a lease its consumer's later claim left behind is refused: the key's effects keep post order"
    )
    func refusedUnderALeaseLeftBehind() async throws {
        try await withDatabase { client, _ in
            try await client.query(
                "CREATE TABLE effect (seq bigserial, key text, number bigint)", logger: TestServer.quiet)
            // No `run()`: no heartbeat renews the leases, which lapse after a second here, and
            // after 3 s at the other consumer: long enough that posts 1 and 2 meet its lease
            // however slow a loaded machine is between its claim and their delivery (with 1 s,
            // this consumer could claim the key back first, and they would not be refused).
            func makeStore(_ consumer: String, lease: Duration) async throws -> PostgresPostStore {
                let store = try PostgresPostStore(
                    client: client, events: try .forConsumers(), consumer: consumer, lease: lease,
                    logger: TestServer.quiet)
                try await store.migrate()
                return store
            }
            let store = try await makeStore("this", lease: .seconds(1))
            let other = try await makeStore("other", lease: .seconds(3))
            let first = Gate()
            let third = Gate()
            let system = EventSystem(storage: .shared(store))
            let desk = InboxDesk(store: store, gates: [1: first, 3: third], system: system)
            try system.register(desk, as: "desk")
            for number in 1...4 { _ = await desk.post(Work(key: "k", number: number), key: "k") }
            system.startConsuming(claimingUpTo: 16, pollInterval: .milliseconds(100))
            try await first.waitForArrivals(1)  // 1…4 claimed; 1 is being delivered
            try await eventually("the other consumer to take the key over") {
                try await other.claim(limit: 16).isEmpty ? nil : true
            }
            first.open()  // 1 and 2 are refused (the key is the other's); 3 stops at its gate
            try await third.waitForArrivals(1)
            #expect(desk.refused.load(ordering: .relaxed) == 2)
            _ = await desk.post(Work(key: "k", number: 5), key: "k")
            // The other consumer's lease lapses; this one claims the key again and gets 1…5: 1
            // and 2 are delivered again, 3 (being delivered) and 4 (queued behind it) are held
            // under the first lease, out of order now.
            try await eventually("this consumer to claim the key again") {
                try await owners(of: ["k"], client)["k"] == .some("this") ? true : nil
            }
            third.open()
            var effects: [Int] = []
            try await eventually("every effect written") {
                effects = []
                for try await (number, ) in try await client.query(
                    "SELECT number FROM effect WHERE key = 'k' ORDER BY seq", logger: TestServer.quiet
                ).decode((Int.self,)) {
                    effects.append(number)
                }
                return effects.count >= 5 ? true : nil
            }
            #expect(effects == [1, 2, 3, 4, 5])
            // A finish under a lease that lapsed meanwhile (no heartbeat here) is refused: the
            // post comes back, and the inbox finds its effect written.
            try await eventually("every post finished") { try await store.unfinished().isEmpty ? true : nil }
            await system.shutDown(gracePeriod: .seconds(30))
        }
    }

    @Test("A body that throws keeps nothing and records nothing")
    func rollsBack() async throws {
        struct Refused: Error {}
        try await withDatabase { client, _ in
            let store = try await migratedStore(client)
            try await client.query("CREATE TABLE effect (number bigint)", logger: TestServer.quiet)
            let post = samplePost(1)
            _ = try await store.store([post])
            await #expect(throws: Refused.self) {
                try await store.inbox.handleOnce(post.id) { connection in
                    try await connection.query("INSERT INTO effect VALUES (1)", logger: TestServer.quiet)
                    throw Refused()
                }
            }
            #expect(try await Self.effects(client).isEmpty)
            #expect(try await !store.inbox.hasHandled(post.id))
        }
    }
}

// The multi-process tests' consumer (Tests/ResponderChainPostgresTests/ConsumerProcessTests.swift):
// an event system on a PostgresPostStore that consumes (`startConsuming`), whose desk handles
// `Work` events by writing an effect row through the fenced inbox (`store.inbox.handleOnce`):
//
//   INSERT INTO effects (key, number, consumer) VALUES (…)
//
// in the same transaction that records the event as handled. It prints `consuming` once it
// consumes, `lostLease KEY NUMBER` when the inbox refused a write because another consumer holds
// the key now, and `refused TOTAL` when the store refused a finish for the same reason. With `gated`, each handler first prints `handling KEY NUMBER` and waits for
// a line on standard input (so that a test can stop the process mid-handler). Its connections'
// application_name is NAME. An inbox write that fails for a reason worth trying again (the server
// restarting, no connection free, a lock held past the store's lock timeout) is tried again, after
// a pause that grows to half a second at most, so that an outage delays an effect and never loses
// it. Its store waits at most a second for a lock and two for a connection. It runs until it is
// killed.
//
//   postgres-consumer-child HOST PORT USER DATABASE LEASE_MILLISECONDS NAME [gated]
import Foundation
import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents

/// The tests' event: number `number` of ordering key `key` (stored as "work").
struct Work: Event, Codable {
    let key: String
    let number: Int
}

/// Writes `line` to standard output at once.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The desk: each `Work` writes its effect once, fenced by the key's lease.
actor EffectDesk: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let store: PostgresPostStore
    nonisolated let name: String
    nonisolated let gated: Bool

    init(system: EventSystem, store: PostgresPostStore, name: String, gated: Bool) {
        self.eventSystem = system
        self.store = store
        self.name = name
        self.gated = gated
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<EffectDesk> {
        $0.on(Work.self) { desk, work, context in
            let id = context.eventID
            try await desk.handle(work, id: id)
            return .handled
        }
    }

    nonisolated func handle(_ work: Work, id: EventID) async throws {
        if gated {
            say("handling \(work.key) \(work.number)")
            await waitForALine()
        }
        let name = self.name
        let logger = store.logger
        var pause = Duration.milliseconds(20)
        while true {
            do {
                try await store.inbox.handleOnce(id) { connection in
                    try await connection.query(
                        "INSERT INTO effects (key, number, consumer) VALUES (\(work.key), \(work.number), \(name))",
                        logger: logger)
                }
                return
            } catch PostgresPostStoreError.lostLease(let key, _) {
                say("lostLease \(key) \(work.number)")
                throw PostgresPostStoreError.lostLease(key: key, token: nil)
            } catch let error as PostgresPostStoreError where error.isTransient {
                try await eventSystem.clock.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(500))
            }
        }
    }

    /// Waits for a line on standard input, read on a thread of its own.
    nonisolated func waitForALine() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                _ = readLine()
                continuation.resume()
            }.start()
        }
    }
}

/// The store, saying `refused TOTAL` each time its fence refuses a finish (the finish's lease
/// was no longer its key's current one).
final class ReportingStore: EventSystem.SharedPostStore {
    let store: PostgresPostStore

    init(_ store: PostgresPostStore) {
        self.store = store
    }

    func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance] {
        try await store.store(posts)
    }

    func finish(_ posts: [EventSystem.StoredPost.Finish]) async throws {
        let before = store.refusedFinishes
        try await store.finish(posts)
        let after = store.refusedFinishes
        if after > before { say("refused \(after)") }
    }

    func recordFailure(_ failure: EventSystem.StoredPost.Failure) async throws {
        try await store.recordFailure(failure)
    }
    func unfinished() async throws -> [EventSystem.StoredPost] { try await store.unfinished() }
    func deadLetters(matching query: EventSystem.DeadLetterQuery) async throws -> [EventSystem
        .StoredDeadLetter]
    {
        try await store.deadLetters(matching: query)
    }
    func redrive(_ ids: [EventID]) async throws -> [EventSystem.StoredPost] { try await store.redrive(ids) }
    func purgeDeadLetters(_ ids: [EventID]) async throws -> Int { try await store.purgeDeadLetters(ids) }
    func outcome(of id: EventID) async throws -> EventSystem.StoredOutcome? {
        try await store.outcome(of: id)
    }
    func claim(limit: Int) async throws -> [EventSystem.StoredPost] { try await store.claim(limit: limit) }
    func release(_ leases: [EventSystem.Lease]) async throws { try await store.release(leases) }
    func signals() -> AsyncStream<EventSystem.StoreSignal> { store.signals() }
}

let arguments = CommandLine.arguments
guard arguments.count == 7 || (arguments.count == 8 && arguments[7] == "gated"),
    let port = Int(arguments[2]), let leaseMilliseconds = Int(arguments[5])
else {
    FileHandle.standardError.write(
        Data("usage: postgres-consumer-child HOST PORT USER DATABASE LEASE_MS NAME [gated]\n".utf8))
    exit(2)
}
let name = arguments[6]
let logger = Logger(label: "postgres-consumer-child")
var configuration = PostgresClient.Configuration(
    host: arguments[1], port: port, username: arguments[3], password: nil, database: arguments[4],
    tls: .disable)
// Its connections carry its name (pg_stat_activity), so that a test sees when they are all gone.
configuration.options.additionalStartupParameters = [("application_name", name)]
let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
var events = StoredEvents()
try events.register(Work.self, as: "work")
let store = try PostgresPostStore(
    client: client, events: events, consumer: name, lease: .milliseconds(leaseMilliseconds),
    lockTimeout: .seconds(1), connectionRequestTimeout: .seconds(2), logger: logger)
let system = EventSystem(storage: .shared(ReportingStore(store)))
try system.register(
    EffectDesk(system: system, store: store, name: name, gated: arguments.count == 8), as: "desk")

try await withThrowingDiscardingTaskGroup { group in
    group.addTask { await client.run() }
    group.addTask { try await store.run() }
    system.startConsuming(claimingUpTo: 32, pollInterval: .milliseconds(250))
    say("consuming")
    // Only a signal stops this process.
    let (never, keptOpen) = AsyncStream.makeStream(of: Void.self)
    for await _ in never {}
    keptOpen.finish()
}

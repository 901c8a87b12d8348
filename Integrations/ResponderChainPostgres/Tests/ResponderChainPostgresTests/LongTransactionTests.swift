import Foundation
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A transaction left open beside the load", .timeLimit(.minutes(2)))
struct LongTransactionTests {
    /// How long the foreign transaction stays open. The behaviour does not depend on it: the
    /// store's waits for the held row end at its lock timeout (a second in the consumer
    /// processes) and are tried again, however long the row is held; a minute behaves as six
    /// seconds do, only longer.
    static let hold = Duration.seconds(6)
    static let window = 0.5

    @Test(
        "A transaction idle in REPEATABLE READ holding one key's row FOR UPDATE: every other key keeps moving, the held key waits and loses nothing, and everything finishes once it ends"
    )
    func otherKeysKeepMoving() async throws {
        try await withEffectsDatabase { client, database, poster in
            let children = [
                try await ConsumerChild(name: "a", database: database, lease: .seconds(2)),
                try await ConsumerChild(name: "b", database: database, lease: .seconds(2)),
            ]
            for child in children { try await child.waitUntilConsuming() }
            let keys = (0..<8).map { "order-\($0)" }
            let heldKey = keys[0]
            let otherKeys = Array(keys.dropFirst())
            let load = SteadyLoad(keys: keys, interval: .milliseconds(25))
            let posting = Task { await load.run(poster) }
            defer { load.stop() }
            let before = try await eventually("four windows of steady flow") { () -> [Int]? in
                let windows = try await FinishedWindows.read(client, window: Self.window, keys: otherKeys)
                let complete = windows.complete(before: windows.now)
                return complete.count >= 4 ? complete.map(\.count) : nil
            }

            var heldKeyAcceptedDuring = 0
            var heldKeyFinishes = 0
            var during: [Int] = []
            // Another application's transaction: a snapshot of the posts, one key's row locked,
            // then idle in transaction.
            try await withForeignTransaction(
                on: database, locking: heldKey, isolation: "REPEATABLE READ",
                readingFirst: "SELECT count(*) FROM responderchain_posts"
            ) {
                let heldFrom = try await databaseNow(client)
                let heldKeyAcceptedBefore = load.accepted[heldKey, default: 0]
                // The scenario's length, not a wait for something to settle.
                try await Task.sleep(for: Self.hold)
                let heldUntil = try await databaseNow(client)
                let others = try await FinishedWindows.read(client, window: Self.window, keys: otherKeys)
                during = others.complete(from: heldFrom + 1)
                    .filter { Double($0.number + 1) * Self.window <= heldUntil }.map(\.count)
                for try await (count, ) in try await client.query(
                    """
                    SELECT count(*)::bigint FROM responderchain_posts
                    WHERE ordering_key = \(heldKey) AND finished_at >= to_timestamp(\(heldFrom))
                    """, logger: TestServer.quiet
                ).decode((Int64,).self) {
                    heldKeyFinishes = Int(count)
                }
                heldKeyAcceptedDuring = load.accepted[heldKey, default: 0] - heldKeyAcceptedBefore
            }
            print(
                "measured: a transaction holding \(heldKey)'s row for \(Self.hold): other keys' finishes per \(Self.window) s before \(before) (median \(median(before))), while held \(during) (median \(median(during))); \(heldKey): \(heldKeyAcceptedDuring) posts accepted and \(heldKeyFinishes) finished while held"
            )
            // The other keys kept moving; the held key's posts were still accepted, and waited.
            #expect(!during.isEmpty)
            #expect(median(during) >= 0.5 * median(before))
            #expect(heldKeyAcceptedDuring > 0)
            #expect(heldKeyFinishes == 0)

            load.stop()
            await posting.value
            let accepted = load.accepted
            let total = load.acceptedCount
            try await eventually("every accepted post's effect", within: .seconds(60)) {
                try await effects(client).count >= total ? true : nil
            }
            let written = try await effects(client)
            #expect(written.count == total)
            for (key, count) in accepted {
                #expect(written.filter { $0.key == key }.map(\.number) == Array(0..<count), "\(key)")
            }
            #expect(load.untypedFailures.isEmpty && load.typedFailures.isEmpty, "\(load.typedFailures)")
            for child in children { #expect(child.killAndReap() == SIGKILL) }
        }
    }

    @Test(
        "A finish, an inbox write and a release behind a key's row another transaction holds end typed lockTimeout after the store's lock timeout; the release is done again once the row is free"
    )
    func waitsBehindAForeignLockEndTyped() async throws {
        try await withDatabase { client, configuration in
            let store = try PostgresPostStore(
                client: client, events: try .forTests(), consumer: "consumer",
                lockTimeout: .milliseconds(300),
                logger: TestServer.quiet)
            try await store.migrate()
            try await whileRunning(store) {
                let post = samplePost(1, key: "k")
                _ = try await store.store([post])
                let lease = try #require(try await store.claim(limit: 1).first?.lease)
                try await withForeignTransaction(on: configuration.database ?? "", locking: "k") {
                    let finish = await result(within: .seconds(10)) {
                        try await store.finish([
                            .init(id: post.id, outcome: .init(kind: .handled, description: ""), lease: lease)
                        ])
                    }
                    let inbox = await result(within: .seconds(10)) {
                        try await store.inbox.handleOnce(post.id) { _ in }
                    }
                    let release = await result(within: .seconds(10)) { try await store.release([lease]) }
                    for (operation, result) in [
                        ("finish", finish), ("inbox", inbox.map { $0.map { _ in () } }), ("release", release),
                    ] {
                        guard case .failure(let error)? = result,
                            let error = error as? PostgresPostStoreError,
                            case .lockTimeout = error, error.isTransient
                        else {
                            Issue.record(
                                "\(operation): expected lockTimeout, got \(String(describing: result))")
                            continue
                        }
                    }
                    let owner = try await owners(of: ["k"], client)["k"]
                    #expect(owner == .some("consumer"))
                }
                try await eventually("the release to be done again once the row is free") {
                    try await owners(of: ["k"], client)["k"] == .some(nil) ? true : nil
                }
                // Its finish was not written: the post is delivered again (the inbox makes that
                // harmless).
                #expect(try await store.unfinished().map(\.id) == [post.id])
            }
        }
    }

    @Test("Heartbeats skip a key whose row another transaction holds: the other keys' leases are renewed")
    func heartbeatsSkipALockedKey() async throws {
        try await withDatabase { client, configuration in
            let lease = Duration.milliseconds(1500)
            let store = try await migratedStore(client, consumer: "consumer", lease: lease)
            try await whileRunning(store) {
                _ = try await store.store([samplePost(1, key: "a"), samplePost(2, key: "b")])
                #expect(try await store.claim(limit: 2).count == 2)
                try await withForeignTransaction(on: configuration.database ?? "", locking: "a") {
                    let lockedAt = try await databaseNow(client)
                    // A heartbeat after the lock renewed b past the lease it had when a was locked.
                    try await eventually("b's lease to be renewed", within: .seconds(10)) {
                        try await leaseEnd(of: "b", client) > lockedAt + 1.5 + 0.1 ? true : nil
                    }
                    #expect(try await leaseEnd(of: "a", client) <= lockedAt + 1.5)
                }
            }
        }
    }
}

/// Runs `body` while another application's connection to `database` is in a transaction (of
/// `isolation`, having run `readingFirst`) that holds `key`'s row `FOR UPDATE`; rolls it back
/// after.
func withForeignTransaction(
    on database: String, locking key: String, isolation: String = "READ COMMITTED",
    readingFirst query: String = "SELECT 1", _ body: () async throws -> Void
) async throws {
    let location = try await TestServer.location
    let foreign = try await PostgresConnection.connect(
        configuration: .init(
            host: location.host, port: location.port, username: location.username,
            password: location.password, database: database, tls: .disable),
        id: 98, logger: TestServer.quiet)
    do {
        // In REPEATABLE READ, a key row the consumers changed after the first read's snapshot
        // cannot be locked (a serialization failure): begin again, as an application would.
        for attempt in 1... {
            do {
                try await foreign.query(
                    PostgresQuery(unsafeSQL: "BEGIN ISOLATION LEVEL \(isolation)"), logger: TestServer.quiet)
                // Each read to its end: a query's rows stream once it began, so the row's lock is
                // held only once its row came.
                for try await _ in try await foreign.query(
                    PostgresQuery(unsafeSQL: query), logger: TestServer.quiet)
                {}
                for try await _ in try await foreign.query(
                    "SELECT key FROM responderchain_keys WHERE key = \(key) FOR UPDATE",
                    logger: TestServer.quiet)
                {}
                break
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "40001" && attempt < 20 {
                try await foreign.query("ROLLBACK", logger: TestServer.quiet)
            }
        }
        try await body()
        try await foreign.query("ROLLBACK", logger: TestServer.quiet)
    } catch {
        try? await foreign.close()
        throw error
    }
    try await foreign.close()
}

/// When `key`'s lease ends, in seconds since 1970 on the database's clock.
func leaseEnd(of key: String, _ client: PostgresClient) async throws -> Double {
    var end = 0.0
    for try await (seconds, ) in try await client.query(
        "SELECT extract(epoch FROM lease_until)::float8 FROM responderchain_keys WHERE key = \(key)",
        logger: TestServer.quiet
    ).decode((Double,).self) {
        end = seconds
    }
    return end
}

/// What `body` returned or threw, or `nil` if it had not ended within `limit` (it is left
/// running): a wait that would hang the test fails it instead.
func result<T: Sendable>(within limit: Duration, of body: @escaping @Sendable () async throws -> T) async
    -> Result<T, any Error>?
{
    let (results, yield) = AsyncStream.makeStream(of: Result<T, any Error>?.self)
    Task {
        do {
            yield.yield(.success(try await body()))
        } catch {
            yield.yield(.failure(error))
        }
    }
    let timer = Task {
        try? await Task.sleep(for: limit)
        yield.yield(nil)
    }
    defer {
        timer.cancel()
        yield.finish()
    }
    for await result in results { return result }
    return nil
}

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

            // Another application's transaction: a snapshot of the posts, one key's row locked,
            // then idle in transaction.
            let location = try await TestServer.location
            let foreign = try await PostgresConnection.connect(
                configuration: .init(
                    host: location.host, port: location.port, username: location.username,
                    password: location.password, database: database, tls: .disable),
                id: 99, logger: TestServer.quiet)
            try await foreign.query("BEGIN ISOLATION LEVEL REPEATABLE READ", logger: TestServer.quiet)
            try await foreign.query("SELECT count(*) FROM responderchain_posts", logger: TestServer.quiet)
            try await foreign.query(
                "SELECT key FROM responderchain_keys WHERE key = \(heldKey) FOR UPDATE",
                logger: TestServer.quiet)
            let heldFrom = try await databaseNow(client)
            let heldKeyAcceptedBefore = load.accepted[heldKey, default: 0]
            // The scenario's length, not a wait for something to settle.
            try await Task.sleep(for: Self.hold)
            let heldUntil = try await databaseNow(client)
            let others = try await FinishedWindows.read(client, window: Self.window, keys: otherKeys)
            let during = others.complete(from: heldFrom + 1).filter {
                Double($0.number + 1) * Self.window <= heldUntil
            }
            .map(\.count)
            var heldKeyFinishes = 0
            for try await (count, ) in try await client.query(
                """
                SELECT count(*)::bigint FROM responderchain_posts
                WHERE ordering_key = \(heldKey) AND finished_at >= to_timestamp(\(heldFrom))
                """, logger: TestServer.quiet
            ).decode((Int64,).self) {
                heldKeyFinishes = Int(count)
            }
            let heldKeyAcceptedDuring = load.accepted[heldKey, default: 0] - heldKeyAcceptedBefore
            try await foreign.query("ROLLBACK", logger: TestServer.quiet)
            try await foreign.close()
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
}

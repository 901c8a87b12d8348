import Foundation
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// An effect a consumer process wrote through the fenced inbox, in commit order.
struct Effect: Sendable {
    let key: String
    let number: Int
    let consumer: String
}

/// A new database on `server` (the tests' server by default) with the store's schema and the
/// effects table the children write to, a store that posts (it does not consume), and the
/// database's name.
func withEffectsDatabase(
    on server: TestServer.Location? = nil,
    _ body: (_ client: PostgresClient, _ database: String, _ poster: PostgresPostStore) async throws -> Void
) async throws {
    try await withDatabase(on: server) { client, configuration in
        let poster = try PostgresPostStore(
            client: client, events: try .forConsumers(), consumer: "poster", logger: TestServer.quiet)
        try await poster.migrate()
        try await client.query(
            """
            CREATE TABLE effects (seq bigserial PRIMARY KEY, key text NOT NULL, number integer NOT NULL,
                consumer text NOT NULL)
            """, logger: TestServer.quiet)
        try await body(client, configuration.database ?? "", poster)
    }
}

/// Stores `perKey` posts of each of `keys`, round by round (each key's posts in number order).
func postWork(_ poster: PostgresPostStore, keys: [String], perKey: Int) async throws {
    for number in 0..<perKey {
        let posts = keys.map { key in
            EventSystem.StoredPost(
                id: EventID(), key: .init(key), entry: "desk",
                payload: .event(Work(key: key, number: number)))
        }
        _ = try await poster.store(posts)
    }
}

/// Every effect written, in commit order.
func effects(_ client: PostgresClient) async throws -> [Effect] {
    var effects: [Effect] = []
    for try await (key, number, consumer) in try await client.query(
        "SELECT key, number, consumer FROM effects ORDER BY seq", logger: TestServer.quiet
    ).decode((String, Int, String).self) {
        effects.append(Effect(key: key, number: number, consumer: consumer))
    }
    return effects
}

/// The keys `consumer` holds that have unfinished posts.
func keysHeld(by consumer: String, _ client: PostgresClient) async throws -> [String] {
    var keys: [String] = []
    for try await (key, ) in try await client.query(
        """
        SELECT k.key FROM responderchain_keys k WHERE k.owner = \(consumer) AND EXISTS
            (SELECT 1 FROM responderchain_posts p WHERE p.ordering_key = k.key AND p.finished_at IS NULL)
        ORDER BY k.key
        """, logger: TestServer.quiet
    ).decode((String,).self) {
        keys.append(key)
    }
    return keys
}

/// How many connections named `name` (`application_name`) the server has open.
func connections(of name: String, _ client: PostgresClient) async throws -> Int {
    var count = 0
    for try await (found, ) in try await client.query(
        "SELECT count(*) FROM pg_stat_activity WHERE application_name = \(name)", logger: TestServer.quiet
    ).decode((Int.self,)) {
        count = found
    }
    return count
}

/// The owner of each of `keys` now.
func owners(of keys: [String], _ client: PostgresClient) async throws -> [String: String?] {
    var owners: [String: String?] = [:]
    for try await (key, owner) in try await client.query(
        "SELECT key, owner FROM responderchain_keys WHERE key = ANY(\(keys))", logger: TestServer.quiet
    ).decode((String, String?).self) {
        owners[key] = owner
    }
    return owners
}

/// Checks that each post's effect was written once, and each key's effects in post order.
func expectEachEffectOnceInOrder(_ effects: [Effect], keys: [String], perKey: Int) {
    #expect(effects.count == keys.count * perKey)
    for key in keys {
        let ofKey = effects.filter { $0.key == key }
        // On a failure, who wrote each effect: the lead to how the order broke.
        #expect(
            ofKey.map(\.number) == Array(0..<perKey),
            "\(key): \(ofKey.map { "\($0.number)@\($0.consumer)" }.joined(separator: " "))")
    }
}

@Suite("Consumer processes sharing a PostgreSQL store", .timeLimit(.minutes(2)), .serialized)
struct ConsumerProcessTests {
    @Test(
        "Consumer processes, one killed with SIGKILL mid-flow, write each effect once, each key's in post order, and take its keys after the lease",
        arguments: [2, 3])
    func aKilledConsumersKeysAreTakenOver(consumers: Int) async throws {
        try await withEffectsDatabase { client, database, poster in
            let lease = Duration.seconds(1)
            var children: [ConsumerChild] = []
            for number in 0..<consumers {
                children.append(
                    try await ConsumerChild(name: "consumer-\(number)", database: database, lease: lease))
            }
            for child in children { try await child.waitUntilConsuming() }
            let keys = (0..<12).map { "order-\($0)" }
            let perKey = 50
            try await postWork(poster, keys: keys, perKey: perKey)
            try await eventually("a quarter of the effects") {
                try await effects(client).count >= keys.count * perKey / 4 ? true : nil
            }
            // The victim: the child holding the most keys with posts left.
            var held: [(child: ConsumerChild, keys: [String])] = []
            for child in children { held.append((child, try await keysHeld(by: child.name, client))) }
            let (victim, _) = try #require(held.max { $0.keys.count < $1.keys.count })
            let victimConnections = try await connections(of: victim.name, client)
            #expect(victimConnections > 0)
            let clock = ContinuousClock()
            let killedAt = clock.now
            #expect(victim.killAndReap() == SIGKILL)
            // A commit the victim sent before it died still lands: once the server has closed its
            // connections, nothing the victim wrote can commit after this count.
            try await eventually("the server to close the victim's connections") {
                try await connections(of: victim.name, client) == 0 ? true : nil
            }
            let writtenBeforeKill = try await effects(client).count
            // Its keys with posts left now that it is dead (it may have finished some between the
            // choice and the kill): those are the ones another consumer must take over.
            let victimKeys = try await keysHeld(by: victim.name, client)
            if !victimKeys.isEmpty {
                let taken = try await eventually("the victim's keys to be taken over", within: .seconds(30)) {
                    () -> Duration? in
                    let owners = try await owners(of: victimKeys, client)
                    let stillVictims = victimKeys.filter { owners[$0] == .some(victim.name) }
                    return stillVictims.isEmpty ? killedAt.duration(to: clock.now) : nil
                }
                print(
                    "measured: \(victimKeys.count) keys of a SIGKILLed consumer taken over \(taken) after the kill (lease \(lease))"
                )
                // The last heartbeat renewed the lease at most a third of it before the kill.
                #expect(taken >= lease / 2)
            }
            try await eventually("every effect", within: .seconds(60)) {
                try await effects(client).count >= keys.count * perKey ? true : nil
            }
            let written = try await effects(client)
            expectEachEffectOnceInOrder(written, keys: keys, perKey: perKey)
            let byConsumer = Dictionary(grouping: written, by: \.consumer).mapValues(\.count)
            print("measured: effects by consumer \(byConsumer)")
            // The dead consumer wrote nothing after the kill, and the survivors wrote the rest of
            // each key it held with effects still to write (a key it held may have been done,
            // its lease not yet released, when it died).
            let beforeKill = written.prefix(writtenBeforeKill)
            let afterKill = written.dropFirst(writtenBeforeKill)
            #expect(afterKill.allSatisfy { $0.consumer != victim.name })
            for key in victimKeys where beforeKill.filter({ $0.key == key }).count < perKey {
                #expect(afterKill.contains { $0.key == key }, "\(key)")
            }
            for child in children where child !== victim { #expect(child.killAndReap() == SIGKILL) }
        }
    }

    @Test(
        "A consumer stopped with SIGSTOP past its lease has its late inbox write and finish refused when it resumes, and each effect is written once"
    )
    func aStoppedConsumersLateWriteIsFenced() async throws {
        try await withEffectsDatabase { client, database, poster in
            let lease = Duration.seconds(1)
            let frozen = try await ConsumerChild(
                name: "frozen", database: database, lease: lease, gated: true)
            try await frozen.waitUntilConsuming()
            try await postWork(poster, keys: ["k"], perKey: 3)
            try await eventually("the frozen consumer to be mid-handler") {
                frozen.lines.contains("handling k 0") ? true : nil
            }
            #expect(frozen.stopAndConfirm() == SIGSTOP)
            frozen.proceed()  // waits in the pipe until the child runs again
            // The taker claims the key once the frozen consumer's lease has run out, and waits
            // mid-handler too: the frozen consumer's late finish comes before the taker's.
            let taker = try await ConsumerChild(name: "taker", database: database, lease: lease, gated: true)
            try await eventually("the taker to take the key") {
                taker.lines.contains("handling k 0") ? true : nil
            }
            // The key was taken while the frozen consumer was still stopped.
            #expect(frozen.processState == "T")
            let owner = try await owners(of: ["k"], client)["k"]
            #expect(owner == .some("taker"))
            frozen.send(SIGCONT)
            try await eventually("the resumed consumer's inbox write and finish to be refused") {
                let lines = frozen.lines
                return lines.contains("lostLease k 0") && lines.contains("refused 1") ? true : nil
            }
            for _ in 0..<3 { taker.proceed() }
            try await eventually("the taker to write every effect") {
                try await effects(client).count == 3 ? true : nil
            }
            let written = try await effects(client)
            expectEachEffectOnceInOrder(written, keys: ["k"], perKey: 3)
            #expect(written.allSatisfy { $0.consumer == "taker" })
            try await eventually("the taker's finishes to be written") {
                var kinds: [String?] = []
                for try await (kind, ) in try await client.query(
                    "SELECT outcome_kind FROM responderchain_posts ORDER BY seq", logger: TestServer.quiet
                ).decode((String?.self,)) {
                    kinds.append(kind)
                }
                return kinds.allSatisfy { $0 != nil } ? kinds : nil
            }.forEach { #expect($0 == "handled") }
            #expect(taker.killAndReap() == SIGKILL)
            #expect(frozen.killAndReap() == SIGKILL)
        }
    }

    @Test("Two consumer processes drain a thousand posts (measured)")
    func twoConsumerProcessesDrainPosts() async throws {
        try await withEffectsDatabase { client, database, poster in
            let children = [
                try await ConsumerChild(name: "a", database: database, lease: .seconds(5)),
                try await ConsumerChild(name: "b", database: database, lease: .seconds(5)),
            ]
            for child in children { try await child.waitUntilConsuming() }
            let keys = (0..<16).map { "order-\($0)" }
            let clock = ContinuousClock()
            let start = clock.now
            try await postWork(poster, keys: keys, perKey: 64)
            try await eventually("every effect", within: .seconds(60)) {
                try await effects(client).count >= keys.count * 64 ? true : nil
            }
            let took = start.duration(to: clock.now)
            let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
            print(
                "measured: 2 consumer processes handled 1024 posts in \(took) (\(Int(1024 / seconds)) posts/s)"
            )
            expectEachEffectOnceInOrder(try await effects(client), keys: keys, perKey: 64)
            for child in children { #expect(child.killAndReap() == SIGKILL) }
        }
    }
}

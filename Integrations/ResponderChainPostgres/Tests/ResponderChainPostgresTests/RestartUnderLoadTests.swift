import Foundation
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("A server restart under load", .timeLimit(.minutes(2)))
struct RestartUnderLoadTests {
    /// The windows the finish rate is counted in, in seconds.
    static let window = 0.5
    /// The offered load: one post every 25 ms (40 a second), a small part of what two consumer
    /// processes handle even on a loaded two-core machine.
    static let interval = Duration.milliseconds(25)
    /// The longest the finish rate may take to come back after the server accepts connections
    /// again.
    static let recoveryLimit = 10.0

    // Broken on purpose: with operations that wait on a connection's query without watching
    // the connection close (postgres-nio 1.33 can leave a query written as its connection
    // closes unanswered for ever), this failed in about a third of the runs: a consumer's
    // writer or handler waited for ever while its heartbeats kept its keys leased.
    // A rate measured against the rate before: it means something only while the machine's
    // cores are this test's, so it runs alone (`.ci/run` runs it in a step of its own, with
    // RESPONDERCHAIN_TIMING_TESTS=1), never beside the other suites.
    @Test(
        "pg_ctl restart mid-flow: two consumer processes reconnect by themselves, lose nothing, write each effect once in key order, and keep up again within 10 s",
        .enabled(
            if: ProcessInfo.processInfo.environment["RESPONDERCHAIN_TIMING_TESTS"] != nil,
            "a timing test: run alone, with RESPONDERCHAIN_TIMING_TESTS=1")
    )
    func consumersRecoverFromARestart() async throws {
        guard ProcessInfo.processInfo.environment["RESPONDERCHAIN_POSTGRES_URL"] == nil else { return }
        // A cluster of its own: restarting the shared one would break the other suites' tests.
        let server = try await TestServer.startCluster()
        do {
            try await restartUnderLoad(on: server)
        } catch {
            try? await TestServer.stopCluster(server)
            throw error
        }
        try await TestServer.stopCluster(server)
    }

    func restartUnderLoad(on server: TestServer.Location) async throws {
        try await withEffectsDatabase(on: server) { client, database, _ in
            let poster = try PostgresPostStore(
                client: client, events: try .forConsumers(), consumer: "poster",
                connectionRequestTimeout: .seconds(1), logger: TestServer.quiet)
            let children = [
                try await ConsumerChild(name: "a", database: database, lease: .seconds(2), server: server),
                try await ConsumerChild(name: "b", database: database, lease: .seconds(2), server: server),
            ]
            for child in children { try await child.waitUntilConsuming() }
            // Still here after 25 s: something waits; what the server says goes to the log.
            let diagnose = Task {
                try await Task.sleep(for: .seconds(25))
                print(try await Self.diagnosis(server: server, database: database))
                for child in children { print("CHILD \(child.name):\n\(child.logged.suffix(3000))") }
            }
            defer { diagnose.cancel() }
            let load = SteadyLoad(keys: (0..<8).map { "order-\($0)" }, interval: Self.interval)
            let posting = Task { await load.run(poster) }
            defer { load.stop() }

            // The rate before: six whole windows of steady flow.
            let before = try await eventually("six windows of steady flow") { () -> [Int]? in
                let windows = try await answered {
                    try await FinishedWindows.read(client, window: Self.window)
                }
                let complete = windows.complete(before: windows.now)
                return complete.count >= 6 ? complete.map(\.count) : nil
            }
            let restartBegan = try await databaseNow(client)
            try await TestServer.restartCluster(server)
            let started = try await eventually("the server to accept connections") { () -> Double? in
                let started = try await answered { () -> Double? in
                    var started: Double?
                    for try await (seconds, ) in try await client.query(
                        "SELECT extract(epoch FROM pg_postmaster_start_time())::float8",
                        logger: TestServer.quiet
                    ).decode((Double,).self) {
                        started = seconds
                    }
                    return started
                }
                return started.flatMap { $0 > restartBegan ? $0 : nil }
            }
            let baseline = median(before)
            // The first whole window after the server started whose rate is back to 95 % of
            // the median before.
            let recovered = try await eventually("the finish rate to come back", within: .seconds(20)) {
                () -> (number: Int64, count: Int, windows: [Int])? in
                let windows = try await answered {
                    try await FinishedWindows.read(client, window: Self.window)
                }
                let after = windows.complete(from: started)
                if let back = after.first(where: { Double($0.count) >= 0.95 * baseline }) {
                    return (back.number, back.count, after.map(\.count))
                }
                // Not back within the limit: the answer is known.
                if windows.now - started > Self.recoveryLimit + 2 * Self.window {
                    return (Int64.max, 0, after.map(\.count))
                }
                return nil
            }
            load.stop()
            await posting.value
            let recoveredAfter =
                recovered.number == Int64.max
                ? Double.infinity : Double(recovered.number + 1) * Self.window - started
            print(
                "measured: restart under \(Int(1 / (Double(Self.interval.components.attoseconds) / 1e18))) posts/s: finishes per \(Self.window) s before \(before) (median \(baseline)), after the server started \(recovered.windows); rate back to >= 95 % \(recoveredAfter) s after the server started; \(load.typedFailures.count) posts not stored, typed, and posted again"
            )
            #expect(recoveredAfter <= Self.recoveryLimit)

            // Nothing accepted is lost, each effect is written once, each key's in post order.
            let accepted = load.accepted
            let total = load.acceptedCount
            try await eventually("every accepted post's effect", within: .seconds(60)) {
                try await answered { try await effects(client) }.count >= total ? true : nil
            }
            let written = try await answered { try await effects(client) }
            #expect(written.count == total)
            for (key, count) in accepted {
                #expect(written.filter { $0.key == key }.map(\.number) == Array(0..<count), "\(key)")
            }
            // What the store did not accept during the restart ended typed: nothing was dropped
            // in silence.
            #expect(load.untypedFailures.isEmpty, "\(load.untypedFailures)")
            #expect(
                load.typedFailures.allSatisfy {
                    if case .unreachable = $0 { return true }
                    if case .connectionUnavailable = $0 { return true }
                    return false
                }, "\(load.typedFailures)")
            for child in children { #expect(child.killAndReap() == SIGKILL) }
        }
    }

    /// The answer of `read`, or an error if it took over 5 s: postgres-nio 1.33 can leave a
    /// query written just as its connection closes unanswered for ever (the store guards its
    /// own operations against it; this test's reads go straight through the client). The
    /// read is left behind; the next attempt asks again.
    func answered<T: Sendable>(_ read: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let answer = await result(within: .seconds(5), of: read) else { throw Unanswered() }
        return try answer.get()
    }

    struct Unanswered: Error {}

    /// What the server says of the database's sessions, key rows and locks, read on a
    /// connection of its own (not the test's pool).
    static func diagnosis(server: TestServer.Location, database: String) async throws -> String {
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: server.host, port: server.port, username: server.username,
                password: server.password, database: database, tls: .disable),
            id: 99, logger: TestServer.quiet)
        var lines: [String] = ["DIAGNOSIS"]
        for try await (pid, app, state, wait, age, query) in try await connection.query(
            """
            SELECT pid, application_name, coalesce(state, ''), coalesce(wait_event_type || '/' || wait_event, ''),
                coalesce(extract(epoch FROM now() - state_change)::float8, -1), left(coalesce(query, ''), 160)
            FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """, logger: TestServer.quiet
        ).decode((Int32, String, String, String, Double, String).self) {
            lines.append("session \(pid) \(app) \(state) \(wait) \(age)s: \(query)")
        }
        for try await (key, owner, token, live, pending) in try await connection.query(
            """
            SELECT k.key, coalesce(k.owner, '-'), coalesce(k.token, 0), coalesce(k.lease_until > now(), false),
                (SELECT count(*) FROM responderchain_posts p WHERE p.ordering_key = k.key AND p.finished_at IS NULL)
            FROM responderchain_keys k ORDER BY k.key
            """, logger: TestServer.quiet
        ).decode((String, String, Int64, Bool, Int64).self) {
            lines.append("key \(key) owner \(owner) token \(token) live \(live) unfinished \(pending)")
        }
        for try await (pid, mode, granted, relation) in try await connection.query(
            """
            SELECT l.pid, l.mode, l.granted, coalesce(c.relname, l.locktype) FROM pg_locks l
            LEFT JOIN pg_class c ON c.oid = l.relation
            WHERE l.pid <> pg_backend_pid() AND l.locktype IN ('relation', 'tuple', 'transactionid')
            """, logger: TestServer.quiet
        ).decode((Int32, String, Bool, String).self) {
            lines.append("lock \(pid) \(mode) \(granted) \(relation)")
        }
        try await connection.close()
        return lines.joined(separator: "\n")
    }
}

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

    // Disabled until understood; two different stalls were seen, each in about a third of the
    // runs. (1) Both consumer processes go on claiming after the restart but their claims come
    // back empty while every key is free and has unfinished posts (a plain SELECT sees them).
    // (2) The consumers drain everything, but this test process's own PostgresClient opens no
    // connection again after the restart (no socket at all, minutes later): its reads wait for
    // ever. When neither happens, the finish rate is back to 95 % within 0.8 s.
    @Test(
        "pg_ctl restart mid-flow: two consumer processes reconnect by themselves, lose nothing, write each effect once in key order, and keep up again within 10 s",
        .disabled(
            "consumer processes sometimes stop finishing after a restart under load: under investigation")
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
            let load = SteadyLoad(keys: (0..<8).map { "order-\($0)" }, interval: Self.interval)
            let posting = Task { await load.run(poster) }
            defer { load.stop() }

            // The rate before: six whole windows of steady flow.
            let before = try await eventually("six windows of steady flow") { () -> [Int]? in
                let windows = try await FinishedWindows.read(client, window: Self.window)
                let complete = windows.complete(before: windows.now)
                return complete.count >= 6 ? complete.map(\.count) : nil
            }
            let restartBegan = try await databaseNow(client)
            try await TestServer.restartCluster(server)
            let started = try await eventually("the server to accept connections") { () -> Double? in
                var started: Double?
                for try await (seconds, ) in try await client.query(
                    "SELECT extract(epoch FROM pg_postmaster_start_time())::float8", logger: TestServer.quiet
                ).decode((Double,).self) {
                    started = seconds
                }
                return started.flatMap { $0 > restartBegan ? $0 : nil }
            }
            let baseline = median(before)
            // The first whole window after the server started whose rate is back to 95 % of
            // the median before.
            let recovered = try await eventually("the finish rate to come back", within: .seconds(20)) {
                () -> (number: Int64, count: Int, windows: [Int])? in
                let windows = try await FinishedWindows.read(client, window: Self.window)
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
                try await effects(client).count >= total ? true : nil
            }
            let written = try await effects(client)
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
}

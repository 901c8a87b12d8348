import Foundation
import PostgresNIO
import ResponderChain
import ResponderChainTesting
import Testing

/// A redrive on a shared store killed with SIGKILL, twice, then run again to its end
/// (`postgres-redrive-child`): every dead letter's effect, and every live post's made beside the
/// redrive, happens once, the next run taking the killed one's keys over once their leases end.
@Suite(
    "A redrive on PostgreSQL cut short by SIGKILL loses nothing and does nothing twice",
    .timeLimit(.minutes(10)))
struct RedriveCrashTests {
    /// How many dead letters: 1,000 in the package's suite, beside its other tests; CI's own
    /// step runs 10,000, alone (`RESPONDERCHAIN_REDRIVE_LETTERS=10000`).
    static let letters =
        ProcessInfo.processInfo.environment["RESPONDERCHAIN_REDRIVE_LETTERS"].flatMap(Int.init) ?? 1_000

    @Test(
        "Dead letters redriven at 500/s (± 10 %) beside 200 new posts per run, killed after a batch's commit and before one's, then run to the end: each stored post's effect once, no dead letter left"
    )
    func killedTwiceThenFinished() async throws {
        try await withDatabase { client, configuration in
            let location = try await TestServer.location
            let database = configuration.database ?? ""
            let child = try CrashChild(named: "postgres-redrive-child")
            func run(_ name: String, _ phase: [String]) async throws -> CrashSuite.Output {
                let output = try await child.run(
                    [
                        location.host, "\(location.port)", location.username, database, "300",
                        "\(name)-\(database)",
                    ]
                        + phase)
                // Nothing a killed run sent can commit once the server has closed its connections.
                try await eventually("\(name)'s connections to close") {
                    try await connections(of: "\(name)-\(database)", client) == 0 ? true : nil
                }
                return output
            }

            let seeded = try await run("seed", ["seed", "\(Self.letters)"])
            #expect(seeded.ending == .exited(0), "\(seeded.standardError)")
            #expect(
                try await Self.count(
                    "SELECT count(*) FROM responderchain_posts WHERE dead_lettered_at_us IS NOT NULL", client)
                    == Self.letters)

            // A crash point counts the items of each batch, live posts and letters alike: 30 % and
            // 40 % of the letters are reached in every interleaving and leave letters for the next run.
            for (index, (point, occurrence)) in [
                ("afterCommitBeforeReturn", Self.letters * 3 / 10), ("beforeCommit", Self.letters * 4 / 10),
            ]
            .enumerated() {
                let cut = try await run("cut-\(index)", ["redrive", "500", "200", point, "\(occurrence)"])
                #expect(cut.ending == .signalled(SIGKILL), "\(point): \(cut.ending) \(cut.standardError)")
            }
            let finished = try await run("final", ["redrive", "500", "200", "none", "0"])
            #expect(finished.ending == .exited(0), "\(finished.standardError)")

            let effects = try await Self.count("SELECT count(*) FROM redrive_effect", client)
            let distinct = try await Self.count("SELECT count(DISTINCT seq) FROM redrive_effect", client)
            let letters = try await Self.count(
                "SELECT count(DISTINCT seq) FROM redrive_effect WHERE seq < 1000000", client)
            let posts = try await Self.count("SELECT count(*) FROM responderchain_posts", client)
            #expect(effects == distinct)  // none twice
            #expect(distinct == posts)  // every stored post's: the letters' and the live posts'
            #expect(letters == Self.letters)
            #expect(((Self.letters + 200)...(Self.letters + 600)).contains(posts))
            #expect(
                try await Self.count(
                    "SELECT count(*) FROM responderchain_posts WHERE dead_lettered_at_us IS NOT NULL", client)
                    == 0)
            #expect(
                try await Self.count(
                    "SELECT count(*) FROM responderchain_posts WHERE outcome_kind = 'handled'", client)
                    == posts)
            // The last run's redrive kept its rate: 500 letters a second, ± 10 % (it pauses after
            // each batch until the letters sent so far fit the rate, the last batch included).
            let pace = try #require(RedrivePace(finished.standardOutput))
            #expect(pace.count >= Self.letters / 4, "\(pace)")
            #expect((450...550).contains(pace.perSecond), "\(pace)")
            print("Redrive cut short twice on PostgreSQL: \(finished.standardOutput)")
        }
    }

    static func count(_ sql: String, _ client: PostgresClient) async throws -> Int {
        var found = -1
        for try await (count, ) in try await client.query(
            PostgresQuery(unsafeSQL: sql), logger: TestServer.quiet
        )
        .decode((Int.self,)) {
            found = count
        }
        return found
    }
}

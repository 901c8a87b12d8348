import Foundation
import GRDB
import ResponderChainTesting
import Testing

/// A redrive killed with SIGKILL, twice, then run again to its end (`sqlite-redrive-child`):
/// every dead letter's effect, and every live post's made beside the redrive, happens once.
@Suite("A redrive cut short by SIGKILL loses nothing and does nothing twice", .timeLimit(.minutes(10)))
struct RedriveCrashTests {
    /// How many dead letters: 1,000 in the package's suite, beside its other tests; CI's own
    /// step runs 10,000, alone (`RESPONDERCHAIN_REDRIVE_LETTERS=10000`).
    static let letters =
        ProcessInfo.processInfo.environment["RESPONDERCHAIN_REDRIVE_LETTERS"].flatMap(Int.init) ?? 1_000

    @Test(
        "Dead letters redriven at 500/s (± 10 %) beside 200 new posts per run, killed after a batch's commit and before one's, then run to the end: each stored post's effect once, no dead letter left"
    )
    func killedTwiceThenFinished() async throws {
        let directory = try TemporaryDirectory()
        let database = directory.file()
        let child = try CrashChild(named: "sqlite-redrive-child")

        let seeded = try await child.run([database, "seed", "\(Self.letters)"], in: directory.path)
        #expect(seeded.ending == .exited(0), "\(seeded.standardError)")
        #expect(
            try Self.count(in: database, "SELECT count(*) FROM responder_post WHERE dead_lettered = 1")
                == Self.letters)

        // Killed once after a batch committed (a redrive batch's letters unfinished in the file,
        // not yet delivered), once before one did (nothing of that batch written). A crash point
        // counts the items of each batch, live posts and letters alike: 300 and 400 are reached
        // in every interleaving (each run has 200 live posts and at least 30 % of the letters left), and
        // leave letters for the next run.
        for (point, occurrence) in [
            ("afterCommitBeforeReturn", Self.letters * 3 / 10), ("beforeCommit", Self.letters * 4 / 10),
        ] {
            let cut = try await child.run(
                [database, "redrive", "500", "200", point, "\(occurrence)"], in: directory.path)
            #expect(cut.ending == .signalled(SIGKILL), "\(point): \(cut.ending) \(cut.standardError)")
        }
        let finished = try await child.run(
            [database, "redrive", "500", "200", "none", "0"], in: directory.path)
        #expect(finished.ending == .exited(0), "\(finished.standardError)")

        let effects = try Self.count(in: database, "SELECT count(*) FROM redrive_effect")
        let distinct = try Self.count(in: database, "SELECT count(DISTINCT seq) FROM redrive_effect")
        let posts = try Self.count(in: database, "SELECT count(*) FROM responder_post")
        let letters = try Self.count(
            in: database, "SELECT count(DISTINCT seq) FROM redrive_effect WHERE seq < 1000000")
        #expect(effects == distinct)  // none twice
        #expect(distinct == posts)  // every stored post's: the letters' and the live posts'
        #expect(letters == Self.letters)
        // The live posts the file holds: the last run's 200, and those the killed runs had
        // stored before the kill (a post whose `post` had not returned was not accepted).
        #expect(((Self.letters + 200)...(Self.letters + 600)).contains(posts))
        #expect(
            try Self.count(in: database, "SELECT count(*) FROM responder_post WHERE dead_lettered = 1") == 0)
        #expect(
            try Self.count(in: database, "SELECT count(*) FROM responder_post WHERE outcome_kind = 'handled'")
                == posts)
        // The last run's redrive kept its rate: 500 letters a second, ± 10 % (it pauses after
        // each batch until the letters sent so far fit the rate, the last batch included).
        let pace = try #require(RedrivePace(finished.standardOutput))
        #expect(pace.count >= Self.letters / 4, "\(pace)")
        #expect((450...550).contains(pace.perSecond), "\(pace)")
        print("Redrive cut short twice on SQLite: \(finished.standardOutput)")
    }

    static func count(in path: String, _ sql: String) throws -> Int {
        try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }
}

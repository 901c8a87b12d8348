import Foundation
import NIOCore
import PostgresNIO
import ResponderChain
import ResponderChainTesting
import Testing

/// The crash suite (``CrashSuite``) on a shared store: a consumer process (`postgres-crash-child`)
/// is killed with SIGKILL at injected crash points, run after run on one database, the next run
/// taking the dead one's keys over once their leases end; the database is checked after a last,
/// clean run.
///
/// The two leases run one after the other: at once, their children would starve the other suites'
/// heartbeats on a small machine.
@Suite("Crashes lose nothing accepted on a shared PostgreSQL store", .timeLimit(.minutes(5)), .serialized)
struct CrashTests {
    /// The leases the suite runs with: short, so that each run takes over the killed run's keys
    /// quickly; and so short that the running consumer's own leases lapse under way and it claims
    /// its keys again, with posts of the earlier claim still being handled (their inbox writes
    /// must still go through, or their redeliveries would come after the key's later posts).
    static let leases: [Duration] = [.milliseconds(300), .milliseconds(20)]

    @Test(
        "Fifty SIGKILLs at five crash points, then a clean run: every accepted post's effect happens once, in key order, and every effect is a stored post's",
        arguments: leases)
    func fiftyKills(lease: Duration) async throws {
        try await withDatabase { client, configuration in
            let started = ContinuousClock.now
            let location = try await TestServer.location
            let child = try CrashChild()
            let database = configuration.database ?? ""
            var tally = CrashSuite.Tally()
            for run in CrashSuite(seed: 39).runs {
                let output = try await child.run(
                    [
                        location.host, "\(location.port)", location.username, database,
                        "\(lease.milliseconds)",
                    ] + run.arguments)
                tally.record(output, of: run)
                // What went wrong besides the kill (a handler's error, a refused finish), for a
                // failure's reader.
                let notes = output.standardError.split(separator: "\n").filter { !$0.hasPrefix("reached ") }
                if !notes.isEmpty { print("run \(run.number): " + notes.joined(separator: "\n  ")) }
                // A commit the killed run sent before it died still lands: once the server has
                // closed its connections, nothing it wrote can commit while the next run reads.
                try await eventually("run \(run.number)'s connections to close") {
                    try await connections(of: "crash-run-\(run.number)-\(database)", client) == 0 ? true : nil
                }
            }
            let summary = tally.check(
                effects: try await Self.effects(client), posts: try await Self.posts(client))
            print("Crash suite on PostgreSQL, lease \(lease): \(summary); \(ContinuousClock.now - started)")
        }
    }

    struct WorkPayload: Decodable {
        let seq: Int
    }

    /// A stored post's identifier as the suite names it: the full form of its `EventID`.
    static func postID(epoch: Int64, sequence: Int64) -> String {
        EventID(epoch: UInt64(bitPattern: epoch), sequence: UInt64(bitPattern: sequence)).debugDescription
    }

    /// The effects, in the order they were applied, each with the post its inbox entry names.
    static func effects(_ client: PostgresClient) async throws -> [CrashSuite.Effect] {
        var effects: [CrashSuite.Effect] = []
        for try await (applied, seq, key, eventID, epoch, sequence) in try await client.query(
            "SELECT applied, seq, key, event_id, post_epoch, post_sequence FROM effect ORDER BY applied",
            logger: TestServer.quiet
        ).decode((Int, Int, String, String, Int64?, Int64?).self) {
            let post = epoch.flatMap { epoch in sequence.map { postID(epoch: epoch, sequence: $0) } }
            effects.append(.init(applied: applied, seq: seq, key: key, eventID: eventID, postID: post))
        }
        return effects
    }

    /// Every stored post, with the work its payload holds.
    static func posts(_ client: PostgresClient) async throws -> [CrashSuite.StoredPost] {
        var posts: [CrashSuite.StoredPost] = []
        for try await (epoch, sequence, payload, finished) in try await client.query(
            "SELECT id_epoch, id_sequence, payload, finished_at IS NOT NULL FROM responderchain_posts",
            logger: TestServer.quiet
        ).decode((Int64, Int64, ByteBuffer, Bool).self) {
            let seq = try? JSONDecoder().decode(WorkPayload.self, from: Data([UInt8](buffer: payload))).seq
            posts.append(.init(id: postID(epoch: epoch, sequence: sequence), seq: seq, finished: finished))
        }
        return posts
    }
}

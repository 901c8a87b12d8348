import Foundation
import GRDB
import ResponderChainTesting
import Testing

/// The crash suite (``CrashSuite``): the system runs in a child process (`sqlite-crash-child`)
/// that is killed with SIGKILL at injected crash points, and the SQLite file it leaves is checked
/// after a last, clean run.
@Suite("Crashes lose nothing accepted", .timeLimit(.minutes(5)))
struct CrashTests {
    @Test(
        "Fifty SIGKILLs at five crash points, then a clean run: every accepted post's effect happens once, in key order, and every effect is a stored post's"
    )
    func fiftyKills() async throws {
        let started = ContinuousClock.now
        let directory = try TemporaryDirectory()
        let database = directory.file()
        let child = try CrashChild()
        var tally = CrashSuite.Tally()
        for run in CrashSuite(seed: 39).runs {
            let output = try await child.run([database] + run.arguments, in: directory.path)
            tally.record(output, of: run)
        }
        let (effects, posts) = try Self.contents(of: database)
        let summary = tally.check(effects: effects, posts: posts)
        print("Crash suite on SQLite: \(summary); \(ContinuousClock.now - started)")
    }

    struct WorkPayload: Decodable {
        let seq: Int
    }

    /// The effects (in the order they were applied) and the stored posts of the file at `path`;
    /// a post's identifier is its `id` column in hexadecimal, as the effect's `post_id` is.
    static func contents(of path: String) throws -> ([CrashSuite.Effect], [CrashSuite.StoredPost]) {
        let database = try DatabaseQueue(path: path)
        return try database.read { db in
            let effects = try Row.fetchAll(
                db, sql: "SELECT applied, seq, key, event_id, post_id FROM effect ORDER BY applied"
            ).map { row in
                let postID: Data? = row["post_id"]
                return CrashSuite.Effect(
                    applied: row["applied"], seq: row["seq"], key: row["key"], eventID: row["event_id"],
                    postID: postID.map(hex))
            }
            let posts = try Row.fetchAll(db, sql: "SELECT id, payload, finished_at_ns FROM responder_post")
                .map { row in
                    let id: Data = row["id"]
                    let payload: Data = row["payload"]
                    let finishedAt: Int64? = row["finished_at_ns"]
                    return CrashSuite.StoredPost(
                        id: hex(id), seq: try? JSONDecoder().decode(WorkPayload.self, from: payload).seq,
                        finished: finishedAt != nil)
                }
            return (effects, posts)
        }
    }

    static func hex(_ bytes: Data) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }
}

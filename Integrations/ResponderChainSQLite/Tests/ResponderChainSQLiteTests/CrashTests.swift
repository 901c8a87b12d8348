import Foundation
import GRDB
import Testing

/// The crash suite: the system runs in a child process (`sqlite-crash-child`) that is killed
/// with SIGKILL at injected crash points, and the SQLite file it leaves is checked after a last,
/// clean run.
@Suite("Crashes lose nothing accepted")
struct CrashTests {
    /// The child's crash points, in the order the runs cycle through them.
    static let points = [
        "beforeCommit", "afterCommitBeforeReturn", "insideHandler", "afterHandlerBeforeDone",
        "duringRedelivery",
    ]
    static let kills = 50
    static let postsPerRun = 40
    static let seed: UInt64 = 39

    /// What the file holds at the end: effects in the order they were applied, and the stored
    /// posts.
    struct Effect {
        let applied: Int
        let seq: Int
        let key: String
        let eventID: String
        let postID: Data?
    }

    struct Post {
        let id: Data
        let seq: Int?
        let finished: Bool
    }

    struct WorkPayload: Decodable {
        let seq: Int
    }

    @Test(
        "Fifty SIGKILLs at five crash points, then a clean run: every accepted post's effect happens once, in key order, and every effect is a stored post's"
    )
    func fiftyKills() async throws {
        let started = ContinuousClock.now
        let directory = try TemporaryDirectory()
        let database = directory.file()
        let child = try CrashChild()
        var random = SplitMix64(seed: Self.seed)
        var accepted: [Int: String] = [:]
        var posted = Set<Int>()
        var landed: [String: Int] = [:]
        var recovered = 0
        var skipped = 0
        var next = 0

        for run in 0...Self.kills {
            let clean = run == Self.kills
            let point = clean ? "none" : Self.points[run % Self.points.count]
            let occurrence = Int.random(in: 1...Self.postsPerRun, using: &random)
            let result = try await child.run(
                [
                    database, "\(run)", "\(next)", "\(Self.postsPerRun)", point, "\(occurrence)",
                    "\(random.next() % 1000)",
                ], in: directory.path)
            recovered += result.recovered
            skipped += result.skipped
            posted.formUnion(next..<(next + Self.postsPerRun))
            next += Self.postsPerRun
            for (seq, id) in result.accepted {
                #expect(accepted.updateValue(id, forKey: seq) == nil, "seq \(seq) accepted twice")
            }
            #expect(!result.standardError.contains("rejected"), "run \(run): \(result.standardError)")
            if clean {
                #expect(result.exitedCleanly, "clean run: \(result.summary)")
            } else {
                // The kill landed: the child reached the point and died of SIGKILL there.
                let reached = result.standardError.contains("reached \(point)\n")
                #expect(
                    result.diedOfSIGKILL && reached, "run \(run) at \(point)×\(occurrence): \(result.summary)"
                )
                if result.diedOfSIGKILL && reached { landed[point, default: 0] += 1 }
            }
        }

        let (effects, posts) = try Self.contents(of: database)
        let effectsBySeq = Dictionary(grouping: effects, by: \.seq)
        let postsByID = Dictionary(posts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        // Every kill landed at its point.
        #expect(landed.values.reduce(0, +) == Self.kills)
        #expect(Set(landed.keys) == Set(Self.points))
        // The kills left work behind: posts were redelivered, and the inbox refused some of them
        // a second effect (the finish of a handled post was lost to a kill).
        #expect(recovered > 0)
        #expect(skipped > 0)
        // No accepted post lost; each effect once.
        for (seq, id) in accepted.sorted(by: { $0.key < $1.key }) {
            let applied = effectsBySeq[seq] ?? []
            #expect(applied.count == 1, "accepted seq \(seq) has \(applied.count) effects")
            #expect(applied.allSatisfy { $0.eventID == id }, "seq \(seq) applied under another event id")
        }
        for (seq, applied) in effectsBySeq {
            #expect(applied.count == 1, "seq \(seq) has \(applied.count) effects")
        }
        // Every stored post (accepted by the store, whether or not its `post` returned) has its
        // effect: durable means delivered.
        for post in posts {
            let seq = try #require(post.seq)
            #expect(effectsBySeq[seq]?.count == 1, "stored seq \(seq) has no effect")
        }
        // Nothing delivered that was never accepted: each effect is a stored post's, of its seq.
        for effect in effects {
            #expect(posted.contains(effect.seq), "seq \(effect.seq) was never posted")
            let post = effect.postID.flatMap { postsByID[$0] }
            #expect(post?.seq == effect.seq, "effect of seq \(effect.seq) is no stored post's")
        }
        // Per-key order: each key's effects were applied in increasing seq (its post order).
        for (key, applied) in Dictionary(grouping: effects, by: \.key) {
            let seqs = applied.sorted { $0.applied < $1.applied }.map(\.seq)
            let overtaken = zip(seqs, seqs.dropFirst()).first { $0 > $1 }
            #expect(
                overtaken == nil, "\(key): seq \(overtaken?.1 ?? 0) applied after seq \(overtaken?.0 ?? 0)")
        }
        // The clean run finished everything.
        #expect(posts.filter { !$0.finished }.isEmpty)

        let summary = Self.points.map { "\($0) \(landed[$0] ?? 0)" }.joined(separator: ", ")
        print(
            """
            Crash suite: \(landed.values.reduce(0, +)) kills landed (\(summary)); \(posted.count) posts \
            made, \(accepted.count) acknowledged, \(posts.count) stored, \(recovered) redelivered, \(skipped) kept from a second effect by the \
            inbox, \(effects.count) effects; \
            \(ContinuousClock.now - started)
            """)
    }

    /// The effects and the stored posts of the file at `path`.
    static func contents(of path: String) throws -> ([Effect], [Post]) {
        let database = try DatabaseQueue(path: path)
        return try database.read { db in
            let effects = try Row.fetchAll(
                db, sql: "SELECT applied, seq, key, event_id, post_id FROM effect ORDER BY applied"
            ).map { row in
                Effect(
                    applied: row["applied"], seq: row["seq"], key: row["key"], eventID: row["event_id"],
                    postID: row["post_id"])
            }
            let posts = try Row.fetchAll(db, sql: "SELECT id, payload, finished_at_ns FROM responder_post")
                .map {
                    row in
                    let payload: Data = row["payload"]
                    let finishedAt: Int64? = row["finished_at_ns"]
                    return Post(
                        id: row["id"], seq: try? JSONDecoder().decode(WorkPayload.self, from: payload).seq,
                        finished: finishedAt != nil)
                }
            return (effects, posts)
        }
    }
}

public import Testing

extension CrashSuite {
    /// An effect the database holds at the end of the suite.
    public struct Effect: Sendable {
        /// Its place in the order effects were applied (increasing).
        public let applied: Int
        /// The work's sequence number.
        public let seq: Int
        /// The work's ordering key's name.
        public let key: String
        /// The event identifier the handler saw (`EventID.debugDescription`).
        public let eventID: String
        /// The stored post the database links the effect to (through the inbox entry written
        /// in the effect's transaction), as ``StoredPost/id`` names it; `nil` if none.
        public let postID: String?

        /// An effect read from the database.
        public init(applied: Int, seq: Int, key: String, eventID: String, postID: String?) {
            self.applied = applied
            self.seq = seq
            self.key = key
            self.eventID = eventID
            self.postID = postID
        }
    }

    /// A post the store holds at the end of the suite.
    public struct StoredPost: Sendable {
        /// The post's identifier, in the store's own form.
        public let id: String
        /// The sequence number its payload holds; `nil` if it cannot be read.
        public let seq: Int?
        /// Whether the store marked it finished.
        public let finished: Bool

        /// A post read from the database.
        public init(id: String, seq: Int?, finished: Bool) {
            self.id = id
            self.seq = seq
            self.finished = finished
        }
    }

    /// What the runs of a crash suite reported, and the checks of what the database holds at
    /// the end.
    public struct Tally: Sendable {
        /// The event identifier of each accepted post, by sequence number.
        public private(set) var accepted: [Int: String] = [:]
        /// Every sequence number a run was to post.
        public private(set) var posted = Set<Int>()
        /// How many kills landed at each point.
        public private(set) var landed: [CrashPoint: Int] = [:]
        /// How many posts the runs found unfinished at their start, summed over the runs (a post
        /// left unfinished through several runs counts in each).
        public private(set) var recovered = 0
        /// How many deliveries the inbox kept from a second effect.
        public private(set) var skipped = 0
        /// How many runs were recorded.
        public private(set) var runs = 0
        /// How many of them were to be killed.
        public private(set) var kills = 0

        /// An empty tally.
        public init() {}

        /// Records the output of `run`, with an issue if a post was accepted twice or
        /// rejected, if a killed run did not die of SIGKILL at its point, or if the clean run
        /// did not exit cleanly.
        public mutating func record(
            _ output: Output, of run: Run, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            runs += 1
            recovered += output.recovered
            skipped += output.skipped
            posted.formUnion(run.seqs)
            for (seq, id) in output.accepted {
                #expect(
                    accepted.updateValue(id, forKey: seq) == nil, "seq \(seq) accepted twice",
                    sourceLocation: sourceLocation)
            }
            #expect(
                !output.standardError.contains("rejected"), "run \(run.number): \(output.standardError)",
                sourceLocation: sourceLocation)
            guard let point = run.point else {
                #expect(output.exitedCleanly, "clean run: \(output.summary)", sourceLocation: sourceLocation)
                return
            }
            kills += 1
            // The kill landed: the child reached the point and died of SIGKILL there.
            let reached = output.standardError.contains("reached \(point.rawValue)\n")
            #expect(
                output.diedOfSIGKILL && reached,
                "run \(run.number) at \(point)×\(run.occurrence): \(output.summary)",
                sourceLocation: sourceLocation)
            if output.diedOfSIGKILL && reached { landed[point, default: 0] += 1 }
        }

        /// Checks what the database holds after the runs, recording an issue for each broken
        /// promise: every kill landed at its point, at every point; the kills left work that
        /// was redelivered and that the inbox kept from a second effect; every accepted post
        /// has exactly one effect, under its event identifier; every stored post has its effect
        /// and is finished; each effect is a stored post's, of its sequence number; each key's
        /// effects were applied in post order. Returns a one-line summary.
        @discardableResult
        public func check(
            effects: [Effect], posts: [StoredPost], sourceLocation: SourceLocation = #_sourceLocation
        ) -> String {
            let effectsBySeq = Dictionary(grouping: effects, by: \.seq)
            let postsByID = Dictionary(posts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

            // Every kill landed at its point.
            #expect(landed.values.reduce(0, +) == kills, sourceLocation: sourceLocation)
            #expect(Set(landed.keys) == Set(CrashPoint.allCases), sourceLocation: sourceLocation)
            // The kills left work behind: posts were redelivered, and the inbox refused some of
            // them a second effect (the finish of a handled post was lost to a kill).
            #expect(recovered > 0, sourceLocation: sourceLocation)
            #expect(skipped > 0, sourceLocation: sourceLocation)
            // No accepted post lost; each effect once.
            for (seq, id) in accepted.sorted(by: { $0.key < $1.key }) {
                let applied = effectsBySeq[seq] ?? []
                #expect(
                    applied.count == 1, "accepted seq \(seq) has \(applied.count) effects",
                    sourceLocation: sourceLocation)
                #expect(
                    applied.allSatisfy { $0.eventID == id }, "seq \(seq) applied under another event id",
                    sourceLocation: sourceLocation)
            }
            for (seq, applied) in effectsBySeq.sorted(by: { $0.key < $1.key }) {
                #expect(
                    applied.count == 1, "seq \(seq) has \(applied.count) effects",
                    sourceLocation: sourceLocation)
            }
            // Every stored post (accepted by the store, whether or not its `post` returned) has
            // its effect, and is finished: durable means delivered.
            for post in posts {
                guard let seq = post.seq else {
                    Issue.record("stored post \(post.id) holds no work", sourceLocation: sourceLocation)
                    continue
                }
                #expect(
                    effectsBySeq[seq]?.count == 1, "stored seq \(seq) has no effect",
                    sourceLocation: sourceLocation)
                #expect(post.finished, "stored seq \(seq) is not finished", sourceLocation: sourceLocation)
            }
            // Nothing delivered that was never accepted: each effect is a stored post's, of its
            // seq.
            for effect in effects {
                #expect(
                    posted.contains(effect.seq), "seq \(effect.seq) was never posted",
                    sourceLocation: sourceLocation)
                let post = effect.postID.flatMap { postsByID[$0] }
                #expect(
                    post?.seq == effect.seq, "effect of seq \(effect.seq) is no stored post's",
                    sourceLocation: sourceLocation)
            }
            // Per-key order: each key's effects were applied in increasing seq (post order).
            for (key, applied) in Dictionary(grouping: effects, by: \.key).sorted(by: { $0.key < $1.key }) {
                let seqs = applied.sorted { $0.applied < $1.applied }.map(\.seq)
                let overtaken = zip(seqs, seqs.dropFirst()).first { $0 > $1 }
                #expect(
                    overtaken == nil,
                    "\(key): seq \(overtaken?.1 ?? 0) applied after seq \(overtaken?.0 ?? 0)",
                    sourceLocation: sourceLocation)
            }

            let points = CrashPoint.allCases.map { "\($0.rawValue) \(landed[$0] ?? 0)" }.joined(
                separator: ", ")
            return """
                \(landed.values.reduce(0, +)) kills landed (\(points)); \(posted.count) posts made, \
                \(accepted.count) acknowledged, \(posts.count) stored, \(recovered) found unfinished at a run's \
                start (summed over the runs), \(skipped) kept from a second effect by the inbox, \(effects.count) \
                effects
                """
        }
    }
}

#if RemoteAndStores
    import Foundation
    import GRDB
    import ResponderChain
    import ResponderChainSQLite
    import ResponderChainStoredEvents

    /// Scenario 11: posts kept in a store (issue 39 §4). Four ``OrderPoster``s post ``StoredOrder``s
    /// to one ``OrderDesk``, each with 1 or 32 posts in flight (4 or 128 concurrent callers, each
    /// `post` returning only once its post is stored; the system's writer batches the posts that
    /// arrive together into one transaction: group commit).
    ///
    /// - **SQLite, accepted**: posts per second until every `post` returned, in both durability
    ///   modes, and (`.powerLoss`) the 99th percentile of the time one `post` takes. Baseline: the
    ///   same number of rows inserted through GRDB alone in transactions of the size the writer made
    ///   (``RawGRDBPosts``): the ratio is the library's cost over the raw limit.
    /// - **SQLite, end to end** (`.processCrash`): from the first post until the store holds no
    ///   unfinished post (accepted → handled → finished), against the raw inserts plus the raw
    ///   finishes in the same batches.
    /// - **In memory**: the same posting through `.store(InMemoryPostStore())` against `.memory`,
    ///   until every post has its outcome.
    ///
    /// Each SQLite repetition runs on a new file in a temporary directory, removed at the end.
    struct StoredPosts: Scenario {
        let id = "stored"
        let title = "11 stored posts"

        /// How one SQLite configuration is run.
        private struct Setup {
            let durability: SQLitePostStore.Durability
            let inFlight: Int
            let posts: Int
        }

        /// What one repetition of one configuration measured.
        private struct Measured {
            var accepted: Duration
            var finished: Duration
            var p99: Duration
            var rowsPerCommit: Double
            var rawInserted: Duration
            var rawFinished: Duration
        }

        /// Posters per system: four ordering keys (a poster's posts are ordered on its own key).
        nonisolated static let posters = 4

        func run(_ measurer: Measurer) async throws -> [Row] {
            let options = measurer.options
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "responder-bench-stored-\(UUID().uuidString)"
            ).path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: directory) }

            let scale = options.quick ? 10 : 1
            let setups = [
                Setup(durability: .processCrash, inFlight: 1, posts: 4_000 / scale),
                Setup(durability: .processCrash, inFlight: 32, posts: 20_000 / scale),
                Setup(durability: .powerLoss, inFlight: 1, posts: 400 / scale),
                Setup(durability: .powerLoss, inFlight: 32, posts: 10_000 / scale),
            ]
            // A first, short run: the code paths and the file system warm up.
            _ = try await Self.measure(setups[1], posts: setups[1].posts / 10, directory: directory)

            var rows: [Row] = []
            for setup in setups {
                var results: [Measured] = []
                for _ in 0..<options.repetitions {
                    results.append(try await Self.measure(setup, posts: setup.posts, directory: directory))
                }
                rows += rowsFor(setup, results)
            }
            rows += try await memoryRows(measurer)
            return rows
        }

        /// The rows of one configuration from its repetitions.
        private func rowsFor(_ setup: Setup, _ results: [Measured]) -> [Row] {
            let posts = Double(setup.posts)
            func perPost(_ durations: [Duration]) -> Sample {
                Sample(durations.map { Measurer.nanoseconds($0) / posts })
            }
            let accepted = perPost(results.map(\.accepted))
            let rawInserted = perPost(results.map(\.rawInserted))
            let batch = Sample(results.map(\.rowsPerCommit)).median
            let mode = setup.durability == .processCrash ? "processCrash" : "powerLoss"
            let variant = "SQLite .\(mode), \(Self.posters) posters × \(setup.inFlight) in flight"
            let rowsPerCommit = "\(Format.fixed(batch, digits: 1)) rows per commit"
            var rows = [
                Row(
                    id: id, scenario: "\(title): \(variant), accepted", depth: nil, hops: 1,
                    library: accepted,
                    baseline: rawInserted,
                    // ≥ 25,000 posts/s crash-safe, ≥ 5,000/s power-safe.
                    target: .nanosecondsPerHopAtMost(setup.durability == .processCrash ? 40_000 : 200_000),
                    note: "11 stored, .\(mode) × \(setup.inFlight): \(setup.posts) posts; "
                        + "\(Self.rate(accepted)) posts/s accepted (raw GRDB \(Self.rate(rawInserted)) rows/s "
                        + "in the same batches); \(rowsPerCommit)")
            ]
            if setup.durability == .powerLoss {
                rows.append(
                    Row(
                        id: id, scenario: "\(title): \(variant), p99 accept latency", depth: nil, hops: 1,
                        library: Sample(results.map { Measurer.nanoseconds($0.p99) }), baseline: nil,
                        target: .nanosecondsPerHopAtMost(30_000_000), note: nil))
            } else {
                let finished = perPost(results.map(\.finished))
                let rawFinished = perPost(results.map(\.rawFinished))
                rows.append(
                    Row(
                        id: id, scenario: "\(title): \(variant), end to end (accepted → handled → finished)",
                        depth: nil, hops: 1, library: finished, baseline: rawFinished,
                        target: .nanosecondsPerHopAtMost(100_000),  // ≥ 10,000 events/s
                        note: "11 stored, .\(mode) × \(setup.inFlight), end to end: \(Self.rate(finished)) "
                            + "events/s (raw GRDB insert + finish \(Self.rate(rawFinished)) rows/s)"))
            }
            return rows
        }

        /// Posts per second at `sample`'s median ns per post.
        private static func rate(_ sample: Sample) -> String {
            Format.number(1e9 / sample.median)
        }

        /// One repetition of `setup` with `posts` posts on a new file: the store's run, then the raw
        /// limit in the batches the writer made.
        @concurrent
        private static func measure(_ setup: Setup, posts: Int, directory: String) async throws -> Measured {
            var events = StoredEvents()
            try events.register(StoredOrder.self, as: "order")
            let sqlite = try SQLitePostStore(
                path: directory + "/store-\(UUID().uuidString).sqlite", events: events,
                durability: setup.durability)
            let store = CountingPostStore(sqlite)
            let system = EventSystem(storage: .store(store))
            let desk = OrderDesk(system: system)
            let posters = (0..<Self.posters).map { _ in OrderPoster(desk: desk, system: system) }
            for (number, poster) in posters.enumerated() {
                try system.register(poster, as: "poster-\(number)")
            }

            let clock = ContinuousClock()
            let start = clock.now
            let tasks = Self.posters * setup.inFlight
            let (latencies, tickets) = await withTaskGroup(of: ([Duration], [Ticket]).self) { group in
                for task in 0..<tasks {
                    let poster = posters[task % Self.posters]
                    group.addTask {
                        var latencies: [Duration] = []
                        var tickets: [Ticket] = []
                        for number in stride(from: task, to: posts, by: tasks) {
                            let posted = clock.now
                            tickets.append(await poster.post(StoredOrder(number: number)))
                            latencies.append(posted.duration(to: clock.now))
                        }
                        return (latencies, tickets)
                    }
                }
                return await group.reduce(into: ([Duration](), [Ticket]())) { all, one in
                    all.0 += one.0
                    all.1 += one.1
                }
            }
            let accepted = start.duration(to: clock.now)
            await store.waitUntilFinished(posts)
            let finished = start.duration(to: clock.now)

            // A benchmark of a failing path is worthless: every post handled, and none unfinished.
            for ticket in tickets {
                let outcome = await ticket.outcome
                guard outcome.kind == .handled else { throw StoredPostsError.notHandled("\(outcome)") }
            }
            let unfinished = try await sqlite.read { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM responder_post WHERE finished_at_ns IS NULL")
            }
            let handled = await desk.handled
            guard unfinished == 0, handled == posts, store.stored == posts else {
                throw StoredPostsError.notHandled(
                    "\(handled) of \(posts) handled, \(unfinished ?? -1) unfinished in the store")
            }
            _ = await system.shutDown(gracePeriod: .seconds(10))

            let batch = Double(store.stored) / Double(max(store.batches, 1))
            let raw = try await RawGRDBPosts.run(
                synchronous: setup.durability.synchronous,
                batch: max(1, Int(batch.rounded())), count: posts, directory: directory)
            let sorted = latencies.sorted()
            return Measured(
                accepted: accepted, finished: finished,
                p99: sorted.isEmpty ? .zero : sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
                rowsPerCommit: batch, rawInserted: raw.inserted, rawFinished: raw.finished)
        }

        /// `.store(InMemoryPostStore())` against `.memory`: the same posting, until every post has
        /// its outcome.
        private func memoryRows(_ measurer: Measurer) async throws -> [Row] {
            var rows: [Row] = []
            for inFlight in [1, 32] {
                let (store, memory) = await measurer.measurePair(
                    library: {
                        await Self.post(
                            storage: .store(EventSystem.InMemoryPostStore()), inFlight: inFlight,
                            iterations: $0)
                    },
                    baseline: { await Self.post(storage: .memory, inFlight: inFlight, iterations: $0) })
                rows.append(
                    Row(
                        id: id,
                        scenario:
                            "\(title): in memory, \(Self.posters) posters × \(inFlight) in flight, InMemoryPostStore vs .memory",
                        depth: nil, hops: 1, library: store, baseline: memory, target: .report,
                        note: "11 stored, in memory: ns per post until every post has its outcome; library "
                            + "`.store(InMemoryPostStore())` (group commit through the store writer), baseline "
                            + "`.memory` (the default)"))
            }
            return rows
        }

        /// `iterations` orders posted by the posters of a new system with `storage`, `inFlight` at a
        /// time each, timed until every post has its outcome.
        @concurrent
        private static func post(storage: EventSystem.Storage, inFlight: Int, iterations: Int) async -> Timed
        {
            let system = EventSystem(storage: storage)
            let desk = OrderDesk(system: system)
            let posters = (0..<Self.posters).map { _ in OrderPoster(desk: desk, system: system) }
            for (number, poster) in posters.enumerated() {
                try? system.register(poster, as: "poster-\(number)")
            }
            let tasks = Self.posters * inFlight
            let stopwatch = Stopwatch()
            let checksum = await withTaskGroup(of: UInt64.self) { group in
                for task in 0..<tasks {
                    let poster = posters[task % Self.posters]
                    group.addTask {
                        var last: Ticket?
                        for number in stride(from: task, to: iterations, by: tasks) {
                            last = await poster.post(StoredOrder(number: number))
                        }
                        // FIFO per sender, each handled in turn: the last outcome comes after the
                        // others of this task.
                        guard let last else { return 0 }
                        return await last.outcome.kind == .handled ? 1 : 0
                    }
                }
                return await group.reduce(0, &+)
            }
            let timed = stopwatch.stop(iterations: iterations, checksum: checksum)
            _ = await system.shutDown(gracePeriod: .seconds(10))
            return timed
        }
    }

    /// A stored-posts run that did not handle every post (the run stops).
    enum StoredPostsError: Error {
        case notHandled(String)
    }
#endif

#if RemoteAndStores
    import Foundation
    import PostgresNIO
    import ResponderChain
    import ResponderChainPostgres
    import ResponderChainStoredEvents

    /// Jobs through a ``PostgresPostStore`` end to end: a producer stores them (each batch one
    /// `store(_:)`), consumers (event systems consuming the store, in this process or in child
    /// processes) handle them, and the producer's listener hears them finish. A job's latency runs
    /// from its acceptance (`store(_:)` returned) to the producer hearing its finish.
    struct PostgresStoreRun {
        /// Where the consumers run.
        enum Consumers {
            case inProcess(Int)
            case processes(Int)
        }

        let server: PostgresServer
        let database: String
        let client: PostgresClient
        let consumers: Consumers
        /// Each consumer's `startConsuming(claimingUpTo:)`.
        var claimLimit = 256

        static func events() throws -> StoredEvents {
            var events = StoredEvents()
            try events.register(PostgresJob.self, as: "job")
            return events
        }

        /// Runs `body` with a migrated producer store listening, and the consumers consuming.
        func withConsumers<T: Sendable>(
            _ body: (PostgresPostStore, PostgresLatencyRecorder<EventID>) async throws -> T
        ) async throws -> T {
            let logger = PostgresServer.quiet
            let producer = try PostgresPostStore(
                client: client, events: try Self.events(), consumer: "producer", logger: logger)
            try await producer.migrate()
            let recorder = PostgresLatencyRecorder<EventID>()
            let signals = producer.signals()
            return try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await producer.run() }
                group.addTask {
                    for await signal in signals {
                        switch signal {
                        case .finished(let ids): recorder.done(ids, at: .now)
                        case .posted: recorder.heardPosted(at: .now)
                        }
                    }
                }
                defer { group.cancelAll() }
                while producer.listenerProcessID == nil { try await Task.sleep(for: .milliseconds(1)) }
                switch consumers {
                case .inProcess(let count):
                    var systems: [EventSystem] = []
                    for number in 0..<count {
                        let store = try PostgresPostStore(
                            client: client, events: try Self.events(), consumer: "consumer-\(number)",
                            logger: logger)
                        let system = EventSystem(storage: .shared(store))
                        try system.register(PostgresJobDesk(system: system), as: "desk")
                        group.addTask { try await store.run() }
                        while store.listenerProcessID == nil { try await Task.sleep(for: .milliseconds(1)) }
                        system.startConsuming(claimingUpTo: claimLimit, pollInterval: .seconds(1))
                        systems.append(system)
                    }
                    let result = try await body(producer, recorder)
                    for system in systems { _ = await system.shutDown(gracePeriod: .seconds(1)) }
                    return result
                case .processes(let count):
                    let children = try (0..<count).map {
                        try PostgresConsumerProcess.spawn(
                            server, database, claimLimit: claimLimit, name: "consumer-\($0)")
                    }
                    defer { for child in children { child.terminate() } }
                    for child in children {
                        try await PostgresConsumerProcess.waitUntilListening(child, on: client)
                    }
                    return try await body(producer, recorder)
                }
            }
        }

        /// Stores `workload`'s jobs and waits for every one to finish.
        func run(_ workload: PostgresWorkload) async throws -> PostgresRun {
            try await withConsumers { producer, recorder in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for number in 0..<workload.producers {
                        group.addTask {
                            let start = ContinuousClock.now
                            for (index, batch) in workload.batches(of: number).enumerated() {
                                try await workload.pace(batch: index, from: start)
                                let posts = batch.map { job in
                                    EventSystem.StoredPost(
                                        id: EventID(), key: .init(workload.key(of: job)), entry: "desk",
                                        payload: .event(
                                            PostgresJob(
                                                number: job, workMicroseconds: workload.workMicroseconds))
                                    )
                                }
                                _ = try await producer.store(posts)
                                recorder.accepted(posts.map(\.id), at: .now)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                try await waitForAll(workload.events, recorder)
                let (elapsed, latencies) = recorder.summary()
                return PostgresRun(events: workload.events, elapsed: elapsed, latencies: latencies)
            }
        }

        /// Waits until `recorder` heard `count` ends, or the store has no unfinished post left (a
        /// signal the producer's buffer dropped).
        private func waitForAll(_ count: Int, _ recorder: PostgresLatencyRecorder<EventID>) async throws {
            var checked = ContinuousClock.now
            while recorder.doneCount < count {
                try await Task.sleep(for: .milliseconds(1))
                guard checked.duration(to: .now) > .milliseconds(500) else { continue }
                checked = .now
                var unfinished = 1
                for try await (left, ) in try await client.query(
                    "SELECT count(*) FROM responderchain_posts WHERE finished_at IS NULL",
                    logger: PostgresServer.quiet
                ).decode((Int.self,)) {
                    unfinished = left
                }
                if unfinished == 0 { return }
            }
        }

        /// Stores one job at a time on idle consumers, `count` times: the time from calling
        /// `store(_:)` to the producer's listener hearing it (`.posted`), and to hearing it finish.
        func wake(_ count: Int) async throws -> (posted: PostgresRun, done: PostgresRun) {
            try await withConsumers { producer, recorder in
                var posted: [Duration] = []
                var done: [Duration] = []
                for number in 0..<count {
                    let post = EventSystem.StoredPost(
                        id: EventID(), key: .init("wake-\(number)"), entry: "desk",
                        payload: .event(PostgresJob(number: number, workMicroseconds: 0)))
                    let start = ContinuousClock.now
                    _ = try await producer.store([post])
                    recorder.accepted([post.id], at: start)
                    let deadline = start + .seconds(10)
                    while recorder.doneCount <= number, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .microseconds(100))
                    }
                    if let heard = recorder.lastPosted, heard > start {
                        posted.append(start.duration(to: heard))
                    }
                    // The consumers idle again before the next post.
                    try await Task.sleep(for: .milliseconds(20))
                }
                let (_, latencies) = recorder.summary()
                done = latencies
                let postedResult = PostgresRun(
                    events: posted.count, elapsed: .zero, latencies: posted.sorted())
                let doneResult = PostgresRun(events: done.count, elapsed: .zero, latencies: done)
                return (postedResult, doneResult)
            }
        }
    }
#endif

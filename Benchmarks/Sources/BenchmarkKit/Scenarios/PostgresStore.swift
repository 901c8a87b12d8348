#if RemoteAndStores
    import Foundation
    import PostgresNIO

    /// Scenario 12: posts shared through a `PostgresPostStore` by several consumer processes (issue
    /// 40 §3), on a PostgreSQL server on loopback: the one `RESPONDERCHAIN_POSTGRES_URL` names, or a
    /// throwaway cluster started for the run. Without either, it prints why and gives no rows.
    ///
    /// A producer stores jobs (``PostgresJob``) in batches through its own store; consumers (event
    /// systems consuming the store, with `startConsuming(claimingUpTo: 256)`) claim, handle, finish
    /// and release them; the producer's listener hears the finishes. A job's latency runs from its
    /// acceptance (`store(_:)` returned) to the producer hearing its finish. Each run is on a new
    /// database.
    ///
    /// - **Baseline**: the same batches of inserts, `SKIP LOCKED` claims of 256 and updates of the
    ///   finished rows sent straight through postgres-nio by two consumer connections
    ///   (``RawPostgresQueue``): no ordering keys, leases, fencing or notifications.
    /// - **1 process / 2 consumer processes**: events per second end to end, against the baseline's
    ///   rows per second (the target: at least half of it, and 3,000 events/s).
    /// - **Offered 3,000/s**: the two processes at a fixed rate: the latency when they keep up.
    /// - **1 ms jobs**: the workload of hardbyte/postgresql-job-queue-benchmarking (published on 4
    ///   CPUs: River 501 jobs/s, Oban 284 jobs/s).
    /// - **Wake**: one job at a time on idle consumers: to the `.posted` signal, and to the finish.
    struct PostgresStore: Scenario {
        let id = "postgres"
        let title = "12 PostgreSQL store"

        /// What one repetition measured.
        private struct Measured {
            var raw: PostgresRun
            var oneProcess: PostgresRun
            var twoProcesses: PostgresRun
            var paced: PostgresRun
            var jobs: PostgresRun
            var posted: PostgresRun
            var woken: PostgresRun
        }

        func run(_ measurer: Measurer) async throws -> [Row] {
            let server: PostgresServer
            switch PostgresServer.locate() {
            case .success(let found): server = found
            case .failure(let unavailable):
                print("\(title): skipped, no PostgreSQL (\(unavailable.reason))")
                return []
            }
            let quick = measurer.options.quick
            var results: [Measured] = []
            for _ in 0..<(quick ? 1 : 3) {
                results.append(try await Self.measure(on: server, quick: quick))
            }
            return rows(results)
        }

        /// One repetition of every row, each on a new database.
        @concurrent
        private static func measure(on server: PostgresServer, quick: Bool) async throws -> Measured {
            func onNewDatabase<T: Sendable>(_ body: (PostgresClient, String) async throws -> T) async throws
                -> T
            {
                let database = try await server.newDatabase()
                return try await withClient(server.configuration(database: database)) { client in
                    try await body(client, database)
                }
            }
            func store(_ consumers: PostgresStoreRun.Consumers, _ workload: PostgresWorkload)
                async throws -> PostgresRun
            {
                try await onNewDatabase { client, database in
                    try await PostgresStoreRun(
                        server: server, database: database, client: client, consumers: consumers
                    )
                    .run(workload)
                }
            }
            let keys = quick ? 100 : 1_000
            let throughput = PostgresWorkload(events: quick ? 1_000 : 20_000, keys: keys, batch: 100)
            var paced = PostgresWorkload(events: quick ? 600 : 15_000, keys: keys, batch: 30)
            paced.rate = 3_000
            var jobs = PostgresWorkload(
                events: quick ? 300 : 10_000, keys: quick ? 300 : 10_000, batch: 10, producers: 2)
            jobs.workMicroseconds = 1_000

            let raw = try await onNewDatabase { client, _ in
                try await RawPostgresQueue.run(throughput, consumers: 2, on: client)
            }
            let oneProcess = try await store(.inProcess(1), throughput)
            let twoProcesses = try await store(.processes(2), throughput)
            let pacedRun = try await store(.processes(2), paced)
            let jobsRun = try await store(.processes(2), jobs)
            let (posted, woken) = try await onNewDatabase { client, database in
                try await PostgresStoreRun(
                    server: server, database: database, client: client, consumers: .processes(2)
                )
                .wake(quick ? 10 : 50)
            }
            return Measured(
                raw: raw, oneProcess: oneProcess, twoProcesses: twoProcesses, paced: pacedRun, jobs: jobsRun,
                posted: posted, woken: woken)
        }

        /// The rows of the repetitions.
        private func rows(_ results: [Measured]) -> [Row] {
            /// Nanoseconds per event of each repetition's `run`.
            func perEvent(_ run: KeyPath<Measured, PostgresRun>) -> Sample {
                Sample(results.map { 1e9 / max($0[keyPath: run].eventsPerSecond, 1e-9) })
            }
            /// Each repetition's latency at `fraction`, in nanoseconds.
            func latency(_ run: KeyPath<Measured, PostgresRun>, _ fraction: Double) -> Sample {
                Sample(results.map { $0[keyPath: run].percentile(fraction) * 1e6 })
            }
            func rate(_ sample: Sample) -> String { Format.number(1e9 / sample.median) }
            func milliseconds(_ sample: Sample) -> String { Format.fixed(sample.median / 1e6, digits: 1) }

            let raw = perEvent(\.raw)
            let rawNote = "raw postgres-nio \(rate(raw)) rows/s in the same batches"
            func endToEnd(_ run: KeyPath<Measured, PostgresRun>, _ variant: String, target: Target) -> Row {
                let sample = perEvent(run)
                return Row(
                    id: id, scenario: "\(title): \(variant), end to end (accepted → handled → finished)",
                    depth: nil, hops: 1, library: sample, baseline: raw, target: target,
                    note: "12 postgres, \(variant): \(rate(sample)) events/s (\(rawNote)); p50 "
                        + "\(milliseconds(latency(run, 0.5))) ms, p99 \(milliseconds(latency(run, 0.99))) ms")
            }
            let paced = latency(\.paced, 0.99)
            let woken = latency(\.woken, 0.5)
            return [
                endToEnd(\.oneProcess, "1 process (producer and consumer)", target: .report),
                endToEnd(\.twoProcesses, "2 consumer processes", target: .throughputAtLeast(0.5)),
                Row(
                    id: id, scenario: "\(title): 2 consumer processes, at least 3,000 events/s", depth: nil,
                    hops: 1, library: perEvent(\.twoProcesses), baseline: nil,
                    target: .nanosecondsPerHopAtMost(333_333), note: nil),
                Row(
                    id: id, scenario: "\(title): 2 consumer processes offered 3,000/s, p99 latency",
                    depth: nil,
                    hops: 1, library: paced, baseline: nil, target: .nanosecondsPerHopAtMost(50_000_000),
                    note:
                        "12 postgres, offered 3,000/s (batches of 30 every 10 ms): \(rate(perEvent(\.paced))) "
                        + "events/s, p50 \(milliseconds(latency(\.paced, 0.5))) ms, p99 \(milliseconds(paced)) ms"
                ),
                Row(
                    id: id, scenario: "\(title): 1 ms jobs, 2 producers, 2 consumer processes", depth: nil,
                    hops: 1, library: perEvent(\.jobs), baseline: nil, target: .report,
                    note:
                        "12 postgres, 1 ms jobs: \(rate(perEvent(\.jobs))) jobs/s (published, 4 CPUs: River "
                        + "501 jobs/s, Oban 284 jobs/s; here 2 cores shared by server, producer and consumers)"
                ),
                Row(
                    id: id, scenario: "\(title): wake, store → .posted at a listener (median)", depth: nil,
                    hops: 1, library: latency(\.posted, 0.5), baseline: nil, target: .report, note: nil),
                Row(
                    id: id, scenario: "\(title): wake, one job to idle consumers, accepted → done (median)",
                    depth: nil, hops: 1, library: woken, baseline: nil,
                    target: .nanosecondsPerHopAtMost(10_000_000),
                    note: "12 postgres, wake: median \(milliseconds(woken)) ms, p99 "
                        + "\(milliseconds(latency(\.woken, 0.99))) ms"),
            ]
        }
    }
#endif

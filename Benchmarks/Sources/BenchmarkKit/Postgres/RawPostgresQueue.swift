#if RemoteAndStores
    import Foundation
    import PostgresNIO

    /// The same jobs through postgres-nio alone, no ResponderChain: a producer's multi-row inserts,
    /// and consumers that claim the oldest unclaimed rows (`FOR UPDATE SKIP LOCKED`) and mark them
    /// finished, each on a connection of its own: the database's limit for this workload on this
    /// machine.
    enum RawPostgresQueue {
        static func run(_ workload: PostgresWorkload, consumers: Int, on client: PostgresClient) async throws
            -> PostgresRun
        {
            let logger = PostgresServer.quiet
            try await client.query(
                """
                CREATE TABLE raw_jobs (seq bigserial PRIMARY KEY, job bigint NOT NULL, ordering_key text NOT NULL,
                    payload bytea NOT NULL, claimed_by text, finished_at timestamptz)
                """, logger: logger)
            try await client.query(
                "CREATE INDEX raw_jobs_unclaimed ON raw_jobs (seq) WHERE claimed_by IS NULL", logger: logger)
            let recorder = PostgresLatencyRecorder<Int64>()
            let payload = ByteBuffer(bytes: Array(repeating: UInt8(ascii: "x"), count: 40))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for producer in 0..<workload.producers {
                    group.addTask {
                        let start = ContinuousClock.now
                        for (index, batch) in workload.batches(of: producer).enumerated() {
                            try await workload.pace(batch: index, from: start)
                            let jobs = batch.map(Int64.init)
                            let keys = batch.map(workload.key(of:))
                            let payloads = Array(repeating: payload, count: batch.count)
                            try await client.query(
                                """
                                INSERT INTO raw_jobs (job, ordering_key, payload)
                                SELECT * FROM unnest(\(jobs)::bigint[], \(keys)::text[], \(payloads)::bytea[])
                                """, logger: logger)
                            recorder.accepted(jobs, at: .now)
                        }
                    }
                }
                for consumer in 0..<consumers {
                    group.addTask {
                        try await client.withConnection { connection in
                            let name = "raw-\(consumer)"
                            while recorder.doneCount < workload.events {
                                var jobs: [Int64] = []
                                var rows: [Int64] = []
                                for try await (seq, job) in try await connection.query(
                                    """
                                    UPDATE raw_jobs SET claimed_by = \(name) WHERE seq IN (
                                        SELECT seq FROM raw_jobs WHERE claimed_by IS NULL ORDER BY seq LIMIT 256
                                        FOR UPDATE SKIP LOCKED)
                                    RETURNING seq, job
                                    """, logger: logger
                                ).decode((Int64, Int64).self) {
                                    rows.append(seq)
                                    jobs.append(job)
                                }
                                guard !jobs.isEmpty else {
                                    try await Task.sleep(for: .milliseconds(1))
                                    continue
                                }
                                if workload.workMicroseconds > 0 {
                                    try await Task.sleep(for: .microseconds(workload.workMicroseconds))
                                }
                                try await connection.query(
                                    "UPDATE raw_jobs SET finished_at = now() WHERE seq = ANY(\(rows))",
                                    logger: logger)
                                recorder.done(jobs, at: .now)
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let (elapsed, latencies) = recorder.summary()
            return PostgresRun(events: workload.events, elapsed: elapsed, latencies: latencies)
        }
    }
#endif

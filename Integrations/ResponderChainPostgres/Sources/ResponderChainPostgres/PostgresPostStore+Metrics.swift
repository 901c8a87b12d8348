internal import Logging
internal import PostgresNIO

extension PostgresPostStore {
    /// Samples the unfinished posts into `recorder`'s gauges every
    /// ``PostgresStoreMetrics/interval``, on the store's clock, until cancelled; a failed
    /// sample (the server is down, say) is logged at debug level and tried again at the next.
    func sampleMetrics(into recorder: StoreMetricsRecorder) async {
        while !Task.isCancelled {
            do {
                recorder.record(try await sampleUnfinished(keyLimit: recorder.settings.keyLimit))
            } catch {
                logger.debug("sampling the store's gauges failed", metadata: ["error": "\(error)"])
            }
            do {
                try await clock.sleep(for: recorder.settings.interval)
            } catch {
                return
            }
        }
    }

    /// The unfinished posts' count, their keys' count, and the oldest post's age of at most
    /// `keyLimit` keys (at least one, for the overall oldest), in one query.
    func sampleUnfinished(keyLimit: Int) async throws -> UnfinishedSample {
        let limit = max(1, keyLimit)
        let (names, newest) = (readNames, readNewest)
        return try await onConnection("sample the unfinished posts") { connection in
            var sample = UnfinishedSample()
            for try await (key, ageMicros, posts, keys, tooNew) in try await connection.query(
                """
                WITH unfinished AS (
                    SELECT ordering_key, count(*) AS posts, min(stored_at) AS oldest FROM responderchain_posts
                    WHERE finished_at IS NULL GROUP BY ordering_key
                )
                SELECT ordering_key, (extract(epoch FROM now() - oldest) * 1000000)::bigint,
                    (sum(posts) OVER ())::bigint, (count(*) OVER ())::bigint,
                    (SELECT count(*) FROM responderchain_posts n
                        JOIN unnest(\(names)::text[], \(newest)::bigint[]) AS r(name, newest)
                            ON r.name = n.type_name
                        WHERE n.finished_at IS NULL AND n.schema_version > r.newest)::bigint
                FROM unfinished ORDER BY oldest LIMIT \(limit)
                """, logger: self.logger
            ).decode((String, Int64, Int64, Int64, Int64).self) {
                sample.posts = Int(posts)
                sample.keys = Int(keys)
                sample.awaitingNewerReader = Int(tooNew)
                sample.oldestAges.append((key, Double(max(0, ageMicros)) / 1_000_000))
            }
            return sample
        }
    }
}

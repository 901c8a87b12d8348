#if RemoteAndStores
    /// What a scenario posts: `events` jobs on `keys` ordering keys, stored `batch` at a time by
    /// `producers` concurrent producers, at most `rate` per second in all (`nil`: as fast as they
    /// go), each job working `workMicroseconds` in its handler.
    struct PostgresWorkload: Sendable {
        var events: Int
        var keys: Int
        var batch: Int
        var producers = 1
        var rate: Int?
        var workMicroseconds = 0

        /// Producer `producer`'s jobs, in batches: job numbers `producer`, `producer + producers`, …
        func batches(of producer: Int) -> [[Int]] {
            let numbers = Array(stride(from: producer, to: events, by: producers))
            return stride(from: 0, to: numbers.count, by: batch).map {
                Array(numbers[$0..<min($0 + batch, numbers.count)])
            }
        }

        /// Job `number`'s ordering key.
        func key(of number: Int) -> String { "key-\(number % keys)" }

        /// Waits until batch `index` of a producer may go, at ``rate``.
        func pace(batch index: Int, from start: ContinuousClock.Instant) async throws {
            guard let rate else { return }
            let due = start + .seconds(Double(index * batch * producers) / Double(rate))
            try await Task.sleep(until: due, clock: .continuous)
        }
    }
#endif

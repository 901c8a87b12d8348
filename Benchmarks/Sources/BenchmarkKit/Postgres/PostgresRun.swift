#if RemoteAndStores
    import Foundation

    /// What one run of one PostgreSQL scenario measured: its jobs, the time they took, and each
    /// one's latency.
    struct PostgresRun: Sendable {
        let events: Int
        let elapsed: Duration
        /// Sorted.
        let latencies: [Duration]

        var eventsPerSecond: Double {
            let nanoseconds = Measurer.nanoseconds(elapsed)
            return nanoseconds > 0 ? Double(events) * 1e9 / nanoseconds : 0
        }

        /// The latency at `fraction` (0.5: the median), in milliseconds.
        func percentile(_ fraction: Double) -> Double {
            guard !latencies.isEmpty else { return 0 }
            let index = min(latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.down)))
            return Measurer.nanoseconds(latencies[index]) / 1e6
        }
    }
#endif

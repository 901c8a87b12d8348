import Foundation

/// One row of the benchmark's table.
struct BenchResult: Sendable {
    let scenario: String
    let events: Int
    let elapsed: Duration
    /// Sorted.
    let latencies: [Duration]
    /// A note printed after the numbers.
    var note = ""

    var eventsPerSecond: Double {
        let seconds = elapsed.seconds
        return seconds > 0 ? Double(events) / seconds : 0
    }

    /// The latency at `fraction` (0.5: the median), in milliseconds.
    func percentile(_ fraction: Double) -> Double {
        guard !latencies.isEmpty else { return 0 }
        let index = min(latencies.count - 1, Int((Double(latencies.count) * fraction).rounded(.down)))
        return latencies[index].seconds * 1000
    }

    /// The Markdown row, with the ratio to `baseline`'s events per second.
    func row(baseline: Double?) -> String {
        let ratio = baseline.map { $0 > 0 ? String(format: "%.2f", eventsPerSecond / $0) : "–" } ?? "–"
        let perSecond = elapsed == .zero ? "–" : "\(Int(eventsPerSecond.rounded()))"
        return "| \(scenario) | \(events) | \(perSecond) | "
            + String(format: "%.1f | %.1f", percentile(0.5), percentile(0.99)) + " | \(ratio) | \(note) |"
    }

    static let header = """
        | scenario | events | events/s | p50 ms | p99 ms | ratio to raw | note |
        |---|---:|---:|---:|---:|---:|---|
        """
}

extension Duration {
    /// The duration in seconds.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// The statistics of one measured path: nanoseconds per call (or per event) over the
/// repetitions.
struct Sample: Sendable {
    /// The median over the repetitions.
    var median: Double
    /// The fastest repetition.
    var min: Double
    /// The slowest repetition.
    var max: Double

    /// The statistics of `values`.
    init(_ values: [Double]) {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }
}

/// What one batch of iterations took.
struct Timed: Sendable {
    var elapsed: Duration
    var iterations: Int
}

/// A started `ContinuousClock` reading: a batch times itself where it runs.
struct Stopwatch {
    private let start = ContinuousClock.now

    /// The time since the stopwatch was created.
    func stop(iterations: Int) -> Timed {
        Timed(elapsed: start.duration(to: .now), iterations: iterations)
    }
}

/// One batch of a path: runs it `iterations` times, checks every result and times it. It throws
/// ``BenchFailure`` when a result is wrong.
typealias Batch = @Sendable (_ iterations: Int) async throws -> Timed

/// Warm-up, calibration and repetitions: every path is warmed up and given a batch size that
/// makes one repetition last about ``Options/repetitionTarget``; then the paths are measured in
/// alternation, one batch each per repetition, so that a noisy moment on the machine hits all of
/// them. The figure is the median over ``Options/repetitions``.
struct Measurer {
    let options: Options

    /// Measures `batches` in alternation.
    func measure(_ batches: [Batch]) async throws -> [Sample] {
        var sizes: [Int] = []
        for batch in batches {
            _ = try await batch(options.warmUp)
            sizes.append(try await calibrate(batch))
        }
        var values = Array(repeating: [Double](), count: batches.count)
        for _ in 0..<options.repetitions {
            for (index, batch) in batches.enumerated() {
                let timed = try await batch(sizes[index])
                values[index].append(Self.nanoseconds(timed.elapsed) / Double(timed.iterations))
            }
        }
        return values.map(Sample.init)
    }

    /// The number of iterations that makes one repetition of `batch` last about the target.
    private func calibrate(_ batch: Batch) async throws -> Int {
        let target = options.repetitionTarget
        var iterations = options.concurrency  // every concurrent sender gets some
        while true {
            let timed = try await batch(iterations)
            if timed.elapsed >= target / 8 || iterations >= 1 << 20 {
                let perIteration = Self.nanoseconds(timed.elapsed) / Double(iterations)
                let wanted = Self.nanoseconds(target) / Swift.max(perIteration, 0.01)
                return Swift.max(options.concurrency, Int(wanted.rounded()))
            }
            iterations *= 2
        }
    }

    /// `duration` in nanoseconds.
    static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// A measured path gave a wrong result: the run stops and exits non-zero (a benchmark of a
/// failing path is worthless).
struct BenchFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

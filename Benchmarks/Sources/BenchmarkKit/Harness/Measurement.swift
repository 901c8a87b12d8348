/// The statistics of one measured operation: nanoseconds per iteration over the repetitions.
struct Sample: Sendable {
    /// The median over the repetitions.
    var median: Double
    /// The fastest repetition.
    var min: Double
    /// The slowest repetition.
    var max: Double

    /// Every figure multiplied by `factor` (to go from per event to per hop, for instance).
    func scaled(by factor: Double) -> Sample {
        Sample(median: median * factor, min: min * factor, max: max * factor)
    }

    /// The statistics of `values`.
    init(_ values: [Double]) {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median =
            sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }

    init(median: Double, min: Double, max: Double) {
        self.median = median
        self.min = min
        self.max = max
    }
}

/// What one batch of iterations took, and a checksum of what it computed (consumed by the
/// ``Measurer`` so that the optimizer cannot drop the work).
struct Timed: Sendable {
    var elapsed: Duration
    var iterations: Int
    var checksum: UInt64
}

/// A started `ContinuousClock` reading. Batches time themselves on their own executor, so that
/// the hop from the measurer (on the main actor) to the batch is not part of the figure.
struct Stopwatch {
    private let start = ContinuousClock.now

    /// The time since the stopwatch was created, with the batch's result (paths that check every
    /// result themselves need no checksum).
    func stop(iterations: Int, checksum: UInt64 = 0) -> Timed {
        Timed(elapsed: start.duration(to: .now), iterations: iterations, checksum: checksum)
    }
}

/// One batch of an operation: runs it `iterations` times and times it.
typealias Batch = (_ iterations: Int) async -> Timed

/// One batch of an operation that checks its results: runs it `iterations` times, times it, and
/// throws when a result is wrong.
///
/// Untyped `throws` on purpose: with Swift 6.3.1, a function generic over a typed error that
/// awaits async closures (`throws(Failure)`, called with `Failure == Never`) hung on its first
/// call in release builds.
typealias CheckedBatch = (_ iterations: Int) async throws -> Timed

/// Repetitions and statistics: calibrates a batch size so that one repetition lasts about
/// ``Options/repetitionTarget``, warms up, then takes the median of ``Options/repetitions``
/// repetitions. Library and baseline are measured in alternation, so that a noisy moment on the
/// machine hits both.
@MainActor
final class Measurer {
    let options: Options
    /// The process's heap allocation counts (for the memory scenario).
    let allocations: AllocationCounter
    /// Every batch's checksum, folded together and printed at the end.
    private(set) var checksum: UInt64 = 0

    init(options: Options, allocations: AllocationCounter = .unsupported) {
        self.options = options
        self.allocations = allocations
    }

    /// The number of iterations that makes one repetition of `batch` last about the target.
    func calibrate(_ batch: CheckedBatch, maxIterations: Int = 1 << 30) async throws -> Int {
        let target = options.repetitionTarget
        var iterations = 1
        while true {
            let timed = try await batch(iterations)
            consume(timed)
            if timed.elapsed >= target / 8 || iterations >= maxIterations {
                let perIteration = Self.nanoseconds(timed.elapsed) / Double(iterations)
                let wanted = Self.nanoseconds(target) / Swift.max(perIteration, 0.01)
                return Swift.max(1, Swift.min(maxIterations, Int(wanted.rounded())))
            }
            iterations = Swift.min(maxIterations, iterations * 2)
        }
    }

    /// Measures `batch` alone.
    func measure(_ batch: @escaping Batch, maxIterations: Int = 1 << 30) async -> Sample {
        await measure([batch], maxIterations: maxIterations)[0]
    }

    /// Measures `library` and `baseline` in alternation.
    func measurePair(
        library: @escaping Batch, baseline: @escaping Batch, maxIterations: Int = 1 << 30
    ) async -> (
        library: Sample, baseline: Sample
    ) {
        let samples = await measure([library, baseline], maxIterations: maxIterations)
        return (samples[0], samples[1])
    }

    /// Measures several batches in alternation: each is calibrated and warmed up, then every
    /// repetition runs each batch once.
    func measure(_ batches: [Batch], maxIterations: Int = 1 << 30) async -> [Sample] {
        do {
            return try await measure(
                batches.map { batch in { await batch($0) } }, warmUp: 0, maxIterations: maxIterations)
        } catch {
            preconditionFailure("a batch that cannot throw threw \(error)")
        }
    }

    /// Measures batches that check their results, in alternation, as above; throws the first
    /// wrong result. With `warmUp`, each batch first runs that many iterations before it is
    /// calibrated (connections, streams and caches that a first call sets up).
    func measure(_ batches: [CheckedBatch], warmUp: Int, maxIterations: Int = 1 << 30) async throws
        -> [Sample]
    {
        var sizes: [Int] = []
        for batch in batches {
            if warmUp > 0 { consume(try await batch(warmUp)) }
            let size = try await calibrate(batch, maxIterations: maxIterations)
            consume(try await batch(size))  // warm-up at the measured size
            sizes.append(size)
        }
        var values = Array(repeating: [Double](), count: batches.count)
        for _ in 0..<options.repetitions {
            for (index, batch) in batches.enumerated() {
                let timed = try await batch(sizes[index])
                consume(timed)
                values[index].append(Self.nanoseconds(timed.elapsed) / Double(timed.iterations))
            }
        }
        return values.map(Sample.init)
    }

    /// Folds a batch's checksum into ``checksum``.
    func consume(_ timed: Timed) {
        checksum = checksum &* 31 &+ timed.checksum
    }

    /// `duration` in nanoseconds.
    nonisolated static func nanoseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

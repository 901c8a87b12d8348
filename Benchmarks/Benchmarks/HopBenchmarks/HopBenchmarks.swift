// The hop's deterministic costs: heap allocations (and retains and releases where they can be
// counted) per send, for the loops of responder-bench's scenarios (BenchmarkKit's `Workload`s),
// against the committed thresholds in Benchmarks/Thresholds. Wall clock is reported, never gated:
// responder-bench's same-run ratios are the timing figures.
//
//   swift package --package-path Benchmarks benchmark                        # run and print
//   cd Benchmarks && swift package benchmark thresholds check                # what CI runs
//   cd Benchmarks && swift package --allow-writing-to-package-directory benchmark thresholds update
//
// Each sample is 1,000 iterations of the loop (`scalingFactor: .kilo`), so a threshold of 1,000
// mallocs is one allocation per send, and one more allocation per hop at D = 8 adds 8,000.

import Benchmark
import BenchmarkKit

let benchmarks: @Sendable () -> Void = {
    // Counts are per sample of 1,000 sends; this much slack absorbs a stray allocation of the
    // runtime (a dispatch continuation cache refilling, say) and is far below one per send.
    let countTolerance = BenchmarkThresholds(absolute: [.p90: 50])
    for workload in Workload.hops {
        let counted: [BenchmarkMetric] =
            workload.countsRetains ? [.mallocCountTotal, .retainCount, .releaseCount] : [.mallocCountTotal]
        Benchmark(
            workload.name,
            configuration: .init(
                metrics: counted + [.wallClock],
                warmupIterations: 1,
                scalingFactor: .kilo,
                maxDuration: .seconds(1),
                maxIterations: 10,
                thresholds: Dictionary(uniqueKeysWithValues: counted.map { ($0, countTolerance) })
                    .merging([.wallClock: .none]) { $1 }
            )
        ) { benchmark in
            let loop = await workload.prepare()
            benchmark.startMeasurement()
            blackHole(await loop(benchmark.scaledIterations.count))
            benchmark.stopMeasurement()
        }
    }
}

// The hop's deterministic costs: heap allocations per send, and retains and releases where they
// can be counted, for the loops of responder-bench's scenarios (BenchmarkKit's `Workload`s),
// checked against the thresholds committed in Benchmarks/Thresholds. Only counts are measured and
// gated: wall-clock figures are responder-bench's, as same-run ratios (this machine's absolute
// times move by ±25 %).
//
//   cd Benchmarks
//   swift package benchmark                                                  # run and print
//   swift package benchmark thresholds check                                 # what CI runs
//   swift package --allow-writing-to-package-directory benchmark thresholds update
//
// Each sample is 1,000 iterations of the loop (`scalingFactor: .kilo`), and the thresholds are per
// sample: 1,000 mallocs is one allocation per send, and one more allocation per hop at D = 8 adds
// 8,000.

import Benchmark
import BenchmarkKit

let benchmarks: @Sendable () -> Void = {
    for workload in Workload.hops + Workload.peers + Workload.tracers + Workload.remote {
        let metrics: [BenchmarkMetric] =
            workload.countsRetains ? [.mallocCountTotal, .retainCount, .releaseCount] : [.mallocCountTotal]
        let tolerance = BenchmarkThresholds(absolute: [.p90: workload.countTolerance])
        Benchmark(
            workload.name,
            configuration: .init(
                metrics: metrics,
                warmupIterations: 1,
                scalingFactor: .kilo,
                maxDuration: .seconds(1),
                maxIterations: 10,
                thresholds: Dictionary(uniqueKeysWithValues: metrics.map { ($0, tolerance) })
            )
        ) { benchmark in
            let loop = try await workload.prepare()
            benchmark.startMeasurement()
            blackHole(try await loop(benchmark.scaledIterations.count))
            benchmark.stopMeasurement()
        }
    }
}

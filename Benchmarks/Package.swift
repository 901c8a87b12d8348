// swift-tools-version: 6.1
// ResponderChain's benchmarks: one nested package, so that the root package keeps zero dependencies.
//
// - `BenchmarkKit`: the one copy of every scenario, its hand-written baseline, the peers (SwiftNIO,
//   OpenCombine), the integrations' tracer costs and the remote hop, with the harness (measurement,
//   reports) they share.
// - `responder-bench`: the same-run ratio table, JSON and SVG chart:
//     swift run -c release --package-path Benchmarks responder-bench [--quick] [--filter NAME]
// - `HopBenchmarks` (under Benchmarks/Benchmarks/): package-benchmark suites on the same scenario
//   code, with deterministic metrics whose committed thresholds (Thresholds/) CI checks:
//     swift package --package-path Benchmarks benchmark thresholds check
//
// See Docs/Benchmarks.md.
import PackageDescription

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "ResponderChain", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkKit",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderUI", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
            ]
        ),
        .executableTarget(
            name: "responder-bench",
            dependencies: ["BenchmarkKit", "CAllocationCounter"]
        ),
        // C, linked only into responder-bench: counts heap allocations by interposing malloc on
        // Linux (a no-op elsewhere). The package-benchmark suites count with the benchmark
        // package's own interposer instead.
        .target(name: "CAllocationCounter"),
        .executableTarget(
            name: "HopBenchmarks",
            dependencies: [
                "BenchmarkKit",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/HopBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)

// The root package's strict settings for every Swift target: Swift 6 mode (complete strict
// concurrency) plus the upcoming features that make dependencies and existentials explicit.
for target in package.targets where target.name != "CAllocationCounter" {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

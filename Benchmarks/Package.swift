// swift-tools-version: 6.1
// ResponderChain's benchmarks: one nested package, so that the root package keeps zero dependencies.
//
// - `BenchmarkKit`: the one copy of every scenario, its hand-written baseline, the peers (SwiftNIO,
//   OpenCombine), the integrations' tracer costs, the remote hop and the stores (SQLite,
//   PostgreSQL), with the harness (measurement, reports) they share.
// - `responder-bench`: the same-run ratio table, JSON and SVG chart (its PostgreSQL rows start a
//   throwaway cluster, or use RESPONDERCHAIN_POSTGRES_URL's server):
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
        // The peers.
        .package(url: "https://github.com/apple/swift-nio", .upToNextMinor(from: "2.101.2")),
        .package(url: "https://github.com/OpenCombine/OpenCombine", exact: "0.14.0"),
        // The integrations whose costs are measured, and what their scenarios build with.
        .package(name: "ResponderChainLogging", path: "../Integrations/ResponderChainLogging"),
        .package(name: "ResponderChainMetrics", path: "../Integrations/ResponderChainMetrics"),
        .package(
            name: "ResponderChainDistributedTracing", path: "../Integrations/ResponderChainDistributedTracing"
        ),
        .package(name: "ResponderChainGRPC", path: "../Integrations/ResponderChainGRPC"),
        .package(name: "ResponderChainSQLite", path: "../Integrations/ResponderChainSQLite"),
        .package(name: "ResponderChainPostgres", path: "../Integrations/ResponderChainPostgres"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
    ],
    targets: [
        .target(
            name: "BenchmarkKit",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderUI", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "ResponderChainLogging", package: "ResponderChainLogging"),
                .product(name: "ResponderChainMetrics", package: "ResponderChainMetrics"),
                .product(
                    name: "ResponderChainDistributedTracing", package: "ResponderChainDistributedTracing"),
                .product(name: "ResponderChainGRPC", package: "ResponderChainGRPC"),
                .product(name: "ResponderChainSQLite", package: "ResponderChainSQLite"),
                .product(name: "ResponderChainPostgres", package: "ResponderChainPostgres"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
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

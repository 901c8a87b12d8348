// swift-tools-version: 6.1
// ResponderChain's benchmarks: one nested package, so that the root package keeps zero dependencies.
//
// - `BenchmarkKit`: the one copy of every scenario, its hand-written baseline, the peers (SwiftNIO,
//   OpenCombine), the integrations' tracer costs, and — with the trait `RemoteAndStores` — the
//   remote hop over gRPC and the stores (SQLite, PostgreSQL), with the harness (measurement,
//   reports) they share.
// - `responder-bench`: the same-run ratio table, JSON and SVG chart. The core rows build without
//   gRPC, BoringSSL, PostgresNIO or GRDB (about 2 minutes cold on 2 cores):
//     swift run -c release --package-path Benchmarks responder-bench [--quick] [--filter NAME]
//   The remote hop and store rows need the trait (their dependencies add about 7 minutes
//   cold; the PostgreSQL rows start a throwaway cluster, or use RESPONDERCHAIN_POSTGRES_URL's
//   server):
//     swift run -c release --package-path Benchmarks --traits RemoteAndStores responder-bench
// - `HopBenchmarks` (under Benchmarks/Benchmarks/): package-benchmark suites on the same scenario
//   code, with deterministic metrics whose committed thresholds (Thresholds/) CI checks:
//     swift package --package-path Benchmarks benchmark thresholds check
//
// See Docs/Benchmarks.md.
import PackageDescription

/// The dependencies only the remote hop and store rows need.
let remote: TargetDependencyCondition? = .when(traits: ["RemoteAndStores"])

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    traits: [
        .trait(
            name: "RemoteAndStores",
            description:
                "The rows across a process boundary: the remote hop over gRPC and the stores (SQLite, PostgreSQL), with their dependencies"
        )
    ],
    dependencies: [
        .package(name: "ResponderChain", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
        // The allocation counts of responder-bench: the interposer package-benchmark counts with.
        .package(url: "https://github.com/ordo-one/malloc-interposer.git", from: "1.6.1"),
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
                .product(name: "ResponderChainGRPC", package: "ResponderChainGRPC", condition: remote),
                .product(name: "ResponderChainSQLite", package: "ResponderChainSQLite", condition: remote),
                .product(
                    name: "ResponderChainPostgres", package: "ResponderChainPostgres", condition: remote),
                .product(name: "PostgresNIO", package: "postgres-nio", condition: remote),
                // Foundation only: the upcast row (scenario 14) is a core row.
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "GRDB", package: "GRDB.swift", condition: remote),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "GRPCCore", package: "grpc-swift-2", condition: remote),
                .product(
                    name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport", condition: remote),
            ]
        ),
        .executableTarget(
            name: "responder-bench",
            dependencies: [
                "BenchmarkKit",
                .product(name: "MallocInterposerSwift", package: "malloc-interposer"),
            ]
        ),
        // One send loop for valgrind's instruction counts (.ci/hop-instructions).
        .executableTarget(name: "hop-instructions", dependencies: ["BenchmarkKit"]),
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
for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

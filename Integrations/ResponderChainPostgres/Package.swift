// swift-tools-version: 6.2
// A shared EventSystem.SharedPostStore on PostgreSQL (postgres-nio): several processes consume one
// store, each ordering key held by one consumer at a time under a lease with a fencing token, with an
// inbox and an outbox in the application's own transactions.
//
// A separate package, so that the root package keeps zero dependencies. Build and test it with
//   swift test --package-path Integrations/ResponderChainPostgres
// The tests start a throwaway PostgreSQL cluster (scripts/pg-cluster; Debian: `apt-get install
// postgresql`) unless RESPONDERCHAIN_POSTGRES_URL names a server to use.
import PackageDescription

let package = Package(
    name: "ResponderChainPostgres",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ResponderChainPostgres", targets: ["ResponderChainPostgres"])
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", .upToNextMinor(from: "2.101.2")),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "ResponderChainPostgres",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The crash test's child: a consumer that claims keys and hangs until it is killed
        // (Tests/ResponderChainPostgresTests/CrashTakeOverTests.swift).
        .executableTarget(
            name: "postgres-lease-child",
            dependencies: [
                "ResponderChainPostgres",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The multi-process tests' consumer: an event system that consumes the store, its handler
        // writing effects through the fenced inbox (Tests/…/ConsumerProcessTests.swift).
        .executableTarget(
            name: "postgres-consumer-child",
            dependencies: [
                "ResponderChainPostgres",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The crash suite's child: a consumer that posts, handles through the fenced inbox and
        // kills itself with SIGKILL at a crash point (Tests/…/CrashTests.swift).
        .executableTarget(
            name: "postgres-crash-child",
            dependencies: [
                "ResponderChainPostgres",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The redrive crash test's child: seeds dead letters, redrives them beside new posts and
        // kills itself at a crash point of a redrive batch (Tests/…/RedriveCrashTests.swift).
        .executableTarget(
            name: "postgres-redrive-child",
            dependencies: [
                "ResponderChainPostgres",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ResponderChainPostgresTests",
            dependencies: [
                "ResponderChainPostgres",
                // Built with the tests, so that the crash test finds it beside their bundle.
                "postgres-lease-child",
                "postgres-consumer-child",
                "postgres-crash-child",
                "postgres-redrive-child",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ],
            // The golden rows (SQL) are read from the source tree by GoldenRowTests.
            exclude: ["Golden"]
        ),
    ]
)

for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

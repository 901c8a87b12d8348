// swift-tools-version: 6.2
// An HTTP service on ResponderChain, to copy: Hummingbird 2 routes that post or send events into a
// chain, request data as event information, the request's span as the parent of the chain's spans,
// outcomes mapped to HTTP statuses, Prometheus metrics on /metrics, a ServiceGroup that shuts
// down without losing a request, and posted orders in memory or in an SQLite file that survives
// a SIGKILL (ORDERS_STORAGE=sqlite), or in PostgreSQL shared by several instances that take over
// each other's orders (ORDERS_STORAGE=postgres). Test it with
//   swift test --package-path Integrations/ExampleHTTPService
import PackageDescription

let package = Package(
    name: "ExampleHTTPService",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "example-http-service", targets: ["example-http-service"])
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(name: "ResponderChainMetrics", path: "../ResponderChainMetrics"),
        .package(name: "ResponderChainDistributedTracing", path: "../ResponderChainDistributedTracing"),
        .package(name: "ResponderChainServiceLifecycle", path: "../ResponderChainServiceLifecycle"),
        .package(name: "ResponderChainSQLite", path: "../ResponderChainSQLite"),
        .package(name: "ResponderChainPostgres", path: "../ResponderChainPostgres"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        .target(
            name: "ExampleHTTPService",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainMetrics", package: "ResponderChainMetrics"),
                .product(
                    name: "ResponderChainDistributedTracing", package: "ResponderChainDistributedTracing"),
                .product(name: "ResponderChainServiceLifecycle", package: "ResponderChainServiceLifecycle"),
                .product(name: "ResponderChainSQLite", package: "ResponderChainSQLite"),
                .product(name: "ResponderChainPostgres", package: "ResponderChainPostgres"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "example-http-service",
            dependencies: [
                "ExampleHTTPService",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ExampleHTTPServiceTests",
            dependencies: [
                "ExampleHTTPService",
                // Built for the crash test, which runs it as a child process and kills it.
                "example-http-service",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainSQLite", package: "ResponderChainSQLite"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
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

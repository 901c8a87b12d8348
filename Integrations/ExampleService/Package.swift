// swift-tools-version: 6.2
// The Guide's service example, compiled and run: a checkout chain wired into a service with the
// configuration bootstrap, swift-service-lifecycle, swift-metrics, swift-log and tracing.
//
// Not a library to depend on: it exists so that the example cannot drift from what compiles and
// works. Test it with
//   swift test --package-path Integrations/ExampleService
import PackageDescription

let package = Package(
    name: "ExampleService",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(name: "ResponderChainLogging", path: "../ResponderChainLogging"),
        .package(name: "ResponderChainMetrics", path: "../ResponderChainMetrics"),
        .package(name: "ResponderChainServiceLifecycle", path: "../ResponderChainServiceLifecycle"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "ExampleService",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainLogging", package: "ResponderChainLogging"),
                .product(name: "ResponderChainMetrics", package: "ResponderChainMetrics"),
                .product(name: "ResponderChainServiceLifecycle", package: "ResponderChainServiceLifecycle"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "ExampleServiceTests",
            dependencies: [
                "ExampleService",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
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

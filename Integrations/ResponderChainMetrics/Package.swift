// swift-tools-version: 6.2
// An adapter from ResponderChain's tracer to swift-metrics: counters per outcome kind and for dead
// letters, timers per send and per hop, gauges for a system's posts.
//
// A separate package, so that the root package keeps zero dependencies. Build and test it with
//   swift test --package-path Integrations/ResponderChainMetrics
import PackageDescription

let package = Package(
    name: "ResponderChainMetrics",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ResponderChainMetrics", targets: ["ResponderChainMetrics"])
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "ResponderChainMetrics",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "ResponderChainMetricsTests",
            dependencies: [
                "ResponderChainMetrics",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
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

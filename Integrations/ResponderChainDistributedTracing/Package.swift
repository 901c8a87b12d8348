// swift-tools-version: 6.2
// An adapter from ResponderChain's tracer to swift-distributed-tracing: one span per hop.
//
// A separate package, so that the root package keeps zero dependencies. Build and test it with
//   swift test --package-path Integrations/ResponderChainDistributedTracing
import PackageDescription

let package = Package(
    name: "ResponderChainDistributedTracing",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ResponderChainDistributedTracing", targets: ["ResponderChainDistributedTracing"])
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    ],
    targets: [
        .target(
            name: "ResponderChainDistributedTracing",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        .testTarget(
            name: "ResponderChainDistributedTracingTests",
            dependencies: [
                "ResponderChainDistributedTracing",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
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

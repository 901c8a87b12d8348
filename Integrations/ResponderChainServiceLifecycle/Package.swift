// swift-tools-version: 6.2
// An `EventSystem` as a swift-service-lifecycle `Service`: it runs until the service group shuts
// down gracefully, then drains the system (new posts refused, accepted posts finished or ended by a
// deadline, every one with its outcome).
//
// A separate package, so that the root package keeps zero dependencies. Build and test it with
//   swift test --package-path Integrations/ResponderChainServiceLifecycle
import PackageDescription

let package = Package(
    name: "ResponderChainServiceLifecycle",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ResponderChainServiceLifecycle", targets: ["ResponderChainServiceLifecycle"])
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "ResponderChainServiceLifecycle",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ResponderChainServiceLifecycleTests",
            dependencies: [
                "ResponderChainServiceLifecycle",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
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

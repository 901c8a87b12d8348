// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ResponderChain",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ResponderChain", targets: ["ResponderChain"]),
        .library(name: "ResponderUI", targets: ["ResponderUI"]),
        .library(name: "ResponderChainTesting", targets: ["ResponderChainTesting"]),
        .executable(name: "responder-demo", targets: ["responder-demo"]),
        .executable(name: "responder-bench", targets: ["responder-bench"]),
    ],
    targets: [
        .target(name: "ResponderChain"),
        .target(name: "ResponderUI", dependencies: ["ResponderChain"]),
        .target(name: "ResponderChainTesting", dependencies: ["ResponderChain"]),
        .executableTarget(
            name: "responder-demo",
            dependencies: ["ResponderChain", "ResponderUI", "ResponderChainTesting"]
        ),
        .executableTarget(
            name: "responder-bench",
            dependencies: ["ResponderChain", "ResponderUI", "ResponderChainTesting"],
            path: "Benchmarks/responder-bench"
        ),
        .testTarget(
            name: "ResponderChainTests",
            dependencies: ["ResponderChain", "ResponderChainTesting"]
        ),
        .testTarget(
            name: "ResponderUITests",
            dependencies: ["ResponderUI", "ResponderChain", "ResponderChainTesting"]
        ),
        .testTarget(
            name: "ResponderChainTestingTests",
            dependencies: ["ResponderChain", "ResponderChainTesting"]
        ),
    ]
)

// One set of strict settings for every target: Swift 6 mode (complete strict concurrency) plus
// the upcoming features that make dependencies and existentials explicit.
for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

// swift-tools-version: 6.2
// peer-bench: ResponderChain's awaited send against two peers that move an event through D
// stages, SwiftNIO's ChannelPipeline and OpenCombine's PassthroughSubject, in one process.
//
// A separate package, so that the root package keeps zero dependencies. Build and run it from the
// repository root with
//   swift run -c release --package-path Benchmarks/Peers peer-bench [--quick]
import PackageDescription

let package = Package(
    name: "Peers",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .executable(name: "peer-bench", targets: ["peer-bench"])
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", from: "0.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "peer-bench",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "OpenCombine", package: "OpenCombine"),
            ]
        )
    ]
)

// The root package's strict settings: Swift 6 mode (complete strict concurrency) plus the upcoming
// features that make dependencies and existentials explicit.
for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

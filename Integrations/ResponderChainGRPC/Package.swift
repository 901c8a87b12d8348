// swift-tools-version: 6.2
// One chain across processes: a remote link in one process continues the chain at an entry
// responder of another, over gRPC (grpc-swift 2, HTTP/2), with one outcome for the whole path.
//
// A separate package, so that the root package keeps zero dependencies. Build and test it with
//   swift test --package-path Integrations/ResponderChainGRPC
import PackageDescription

let package = Package(
    name: "ResponderChainGRPC",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ResponderChainGRPC", targets: ["ResponderChainGRPC"])
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
    ],
    targets: [
        .target(
            name: "ResponderChainGRPC",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
            ]
        ),
        .testTarget(
            name: "ResponderChainGRPCTests",
            dependencies: [
                "ResponderChainGRPC",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
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

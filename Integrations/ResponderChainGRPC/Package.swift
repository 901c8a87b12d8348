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
        .library(name: "ResponderChainGRPC", targets: ["ResponderChainGRPC"]),
        .executable(name: "remote-chain-demo", targets: ["remote-chain-demo"]),
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(url: "https://github.com/grpc/grpc-swift-2", from: "2.4.3"),
        .package(url: "https://github.com/grpc/grpc-swift-nio-transport", from: "2.9.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(name: "ResponderChainDistributedTracing", path: "../ResponderChainDistributedTracing"),
    ],
    targets: [
        .target(
            name: "ResponderChainGRPC",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                // Event types under stable names with schema versions and upcasts: the same
                // registry the stores write with.
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The order events and information the demo, the test server and the tests send across,
        // and the registry naming them: one definition for every process of this package.
        .target(
            name: "RemoteOrders",
            dependencies: [
                "ResponderChainGRPC",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
            ]
        ),
        // A gateway and a backend process joined by a remote link, printing the joined trace:
        //   swift run remote-chain-demo
        .executableTarget(
            name: "remote-chain-demo",
            dependencies: [
                "ResponderChainGRPC",
                "RemoteOrders",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(
                    name: "ResponderChainDistributedTracing", package: "ResponderChainDistributedTracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        // The process the two-process test launches, kills and relaunches: a backend chain
        // behind a `RemoteChainServer`, told what to do on its command line.
        .executableTarget(
            name: "remote-chain-test-server",
            dependencies: [
                "ResponderChainGRPC",
                "RemoteOrders",
                .product(name: "ResponderChain", package: "ResponderChain"),
            ]
        ),
        .testTarget(
            name: "ResponderChainGRPCTests",
            dependencies: [
                "ResponderChainGRPC",
                "RemoteOrders",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "GRPCCore", package: "grpc-swift-2"),
                .product(name: "GRPCNIOTransportHTTP2", package: "grpc-swift-nio-transport"),
                .product(
                    name: "ResponderChainDistributedTracing", package: "ResponderChainDistributedTracing"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
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

// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "ResponderChain",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    // The libraries only: the demo is an executable target of this package, run with
    // `swift run responder-demo`, and is not offered to packages that depend on this one. The
    // benchmarks are the nested package Benchmarks/ (it has dependencies; this package has none):
    // `swift run -c release --package-path Benchmarks responder-bench`.
    products: [
        .library(name: "ResponderChain", targets: ["ResponderChain"]),
        .library(name: "ResponderUI", targets: ["ResponderUI"]),
        .library(name: "ResponderChainTesting", targets: ["ResponderChainTesting"]),
        // The registry of event types a durable store writes under stable names (JSON, with
        // Foundation): shared by the SQLite and PostgreSQL stores of Integrations/.
        .library(name: "ResponderChainStoredEvents", targets: ["ResponderChainStoredEvents"]),
    ],
    targets: [
        .target(name: "ResponderChain"),
        .target(name: "ResponderUI", dependencies: ["ResponderChain"]),
        .target(name: "ResponderChainTesting", dependencies: ["ResponderChain"]),
        .target(name: "ResponderChainStoredEvents", dependencies: ["ResponderChain"]),
        .executableTarget(
            name: "responder-demo",
            dependencies: ["ResponderChain", "ResponderUI", "ResponderChainTesting"]
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
        .testTarget(
            name: "ResponderChainStoredEventsTests",
            dependencies: ["ResponderChain", "ResponderChainStoredEvents"]
        ),
        // The README's and the Guide's Swift blocks, compiled verbatim, and a suite that fails
        // when a block and its compiled copy differ.
        .testTarget(
            name: "DocSnippetTests",
            dependencies: ["ResponderChain", "ResponderUI", "ResponderChainTesting"]
        ),
        // Conformers written in a module built with other concurrency defaults must still match
        // the core's protocols (see the extra setting below the loop).
        .testTarget(
            name: "TracerConformanceTests",
            dependencies: ["ResponderChain", "ResponderChainTesting"]
        ),
    ]
)

// One set of strict settings for every target: Swift 6 mode (complete strict concurrency) plus the
// upcoming features that make dependencies and existentials explicit.
for target in package.targets {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .swiftLanguageMode(.v6),
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("InternalImportsByDefault"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}

// The one deliberate exception: this test module is built with nonisolated async functions
// running on the caller's actor by default, to prove that the core's public protocols (which
// spell their isolation) are satisfied from modules built either way.
if let conformance = package.targets.first(where: { $0.name == "TracerConformanceTests" }) {
    conformance.swiftSettings =
        (conformance.swiftSettings ?? []) + [
            .enableUpcomingFeature("NonisolatedNonsendingByDefault")
        ]
}

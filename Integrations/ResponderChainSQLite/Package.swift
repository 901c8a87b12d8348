// swift-tools-version: 6.2
// A durable EventSystem.PostStore on SQLite (GRDB.swift over the system's libsqlite3): accepted posts survive
// a process crash or a power loss, with an inbox and an outbox for exactly-once effects.
//
// A separate package, so that the root package keeps zero dependencies. Build and test it with
//   swift test --package-path Integrations/ResponderChainSQLite
// (Linux: the system's SQLite headers, `apt-get install libsqlite3-dev`.)
import PackageDescription

let package = Package(
    name: "ResponderChainSQLite",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "ResponderChainSQLite", targets: ["ResponderChainSQLite"])
    ],
    dependencies: [
        .package(name: "ResponderChain", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(
            name: "ResponderChainSQLite",
            dependencies: [
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // Rows per second through the store against GRDB alone (Docs/Durability.md).
        .executableTarget(
            name: "sqlite-store-measure",
            dependencies: [
                "ResponderChainSQLite",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The crash suite's child process: posts, handles and kills itself with SIGKILL at a
        // crash point (Tests/ResponderChainSQLiteTests/CrashTests.swift).
        .executableTarget(
            name: "sqlite-crash-child",
            dependencies: [
                "ResponderChainSQLite",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The redrive crash test's child process: seeds dead letters, redrives them beside new
        // posts, and kills itself at a crash point of a redrive batch
        // (Tests/ResponderChainSQLiteTests/RedriveCrashTests.swift).
        .executableTarget(
            name: "sqlite-redrive-child",
            dependencies: [
                "ResponderChainSQLite",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "ResponderChainSQLiteTests",
            dependencies: [
                "ResponderChainSQLite",
                // Built with the tests, so that the crash suites find them beside their bundle.
                "sqlite-crash-child",
                "sqlite-redrive-child",
                .product(name: "ResponderChain", package: "ResponderChain"),
                .product(name: "ResponderChainStoredEvents", package: "ResponderChain"),
                .product(name: "ResponderChainTesting", package: "ResponderChain"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            // The golden rows (SQL dumps) are read from the source tree by GoldenRowTests.
            exclude: ["Golden"]
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

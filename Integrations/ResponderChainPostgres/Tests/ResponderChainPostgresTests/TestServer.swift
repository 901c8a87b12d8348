import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Logging
import PostgresNIO
import ResponderChain
import ResponderChainPostgres
import ResponderChainStoredEvents
import ResponderChainTesting
import Testing

/// The PostgreSQL server the tests use: the one `RESPONDERCHAIN_POSTGRES_URL` names
/// (`postgres://user[:password]@host:port/database`, a user allowed to create databases), or
/// else a throwaway cluster that `scripts/pg-cluster` starts once per test process, and that
/// stops by itself once the process exits. Each test gets its own new database, so suites run in
/// parallel.
enum TestServer {
    /// Where the server is, and the cluster's folder when the tests started it.
    struct Location: Sendable {
        let host: String
        let port: Int
        let username: String
        let password: String?
        let folder: String?
    }

    private static let started = Task<Location, any Error> { try await start() }

    /// The server, started on first use.
    static var location: Location {
        get async throws { try await started.value }
    }

    private static func start() async throws -> Location {
        if let url = ProcessInfo.processInfo.environment["RESPONDERCHAIN_POSTGRES_URL"], !url.isEmpty {
            return try parse(url, folder: nil)
        }
        return try await startCluster()
    }

    /// A new throwaway cluster of its own (`scripts/pg-cluster start`), for a test that
    /// restarts its server; it stops once this process exits, or at ``stopCluster(_:)``.
    static func startCluster() async throws -> Location {
        let output = try await runScript(["start", "--watch", "\(ProcessInfo.processInfo.processIdentifier)"])
        let parts = output.split(separator: " ")
        guard parts.count == 2 else { throw ClusterFailed(message: "pg-cluster said: \(output)") }
        return try parse(String(parts[0]), folder: String(parts[1]))
    }

    /// Restarts a throwaway cluster's server (`pg_ctl restart`).
    static func restartCluster(_ location: Location) async throws {
        guard let folder = location.folder else { return }
        _ = try await runScript(["restart", folder])
    }

    /// Stops a throwaway cluster and removes its folder.
    static func stopCluster(_ location: Location) async throws {
        guard let folder = location.folder else { return }
        _ = try await runScript(["stop", folder])
    }

    private static func parse(_ url: String, folder: String?) throws -> Location {
        guard let components = URLComponents(string: url), let host = components.host else {
            throw ClusterFailed(message: "not a postgres:// URL: \(url)")
        }
        return Location(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, folder: folder)
    }

    private static func runScript(_ arguments: [String]) async throws -> String {
        let path = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "scripts/pg-cluster").path
        // The script's output goes to files, not pipes: the server it starts inherits this
        // process's open descriptors, so a pipe's write end would stay open, and a read to its
        // end would never return.
        let folder = FileManager.default.temporaryDirectory
        let name = "pg-cluster-\(UInt64.random(in: 0...UInt64.max))"
        let output = folder.appending(path: name + ".out")
        let errors = folder.appending(path: name + ".err")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        // system(3) waits for its own child: Foundation's Process did not reap this one here
        // (its termination handler never ran while the tests' tasks held the threads).
        let quoted = ([path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let status = system(
            "/bin/bash \(quoted.joined(separator: " ")) >'\(output.path)' 2>'\(errors.path)' </dev/null")
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let problems = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ClusterFailed(message: "pg-cluster \(arguments.joined(separator: " ")) failed: \(problems)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ClusterFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    /// A client configuration for `database` on the server.
    static func configuration(database: String, on server: Location? = nil) async throws
        -> PostgresClient.Configuration
    {
        let location: Location
        if let server { location = server } else { location = try await Self.location }
        var configuration = PostgresClient.Configuration(
            host: location.host, port: location.port, username: location.username,
            password: location.password,
            database: database, tls: .disable)
        configuration.options.connectTimeout = .seconds(5)
        return configuration
    }

    /// A new, empty database, with its name.
    static func newDatabase(on server: Location? = nil) async throws -> String {
        let location: Location
        if let server { location = server } else { location = try await Self.location }
        let name = "responderchain_test_\(UInt64.random(in: 0...UInt64.max))"
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: location.host, port: location.port, username: location.username,
                password: location.password, database: "postgres", tls: .disable),
            id: 1, logger: quiet)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: quiet)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        return name
    }

    static let quiet = Logger(
        label: "ResponderChainPostgresTests", factory: { _ in SwiftLogNoOpLogHandler() })
}

/// Runs `body` with a running client on a new database.
func withDatabase<T: Sendable>(
    on server: TestServer.Location? = nil,
    _ body: (PostgresClient, PostgresClient.Configuration) async throws -> T
) async throws -> T {
    let configuration = try await TestServer.configuration(
        database: try await TestServer.newDatabase(on: server), on: server)
    return try await withClient(configuration) { client in try await body(client, configuration) }
}

/// Runs `body` with a running client on `configuration`'s database.
func withClient<T: Sendable>(
    _ configuration: PostgresClient.Configuration, _ body: (PostgresClient) async throws -> T
) async throws -> T {
    let client = PostgresClient(configuration: configuration, backgroundLogger: TestServer.quiet)
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        return try await body(client)
    }
}

/// Runs `body` while `store.run()` runs.
func whileRunning<T: Sendable>(_ store: PostgresPostStore, _ body: () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await store.run() }
        defer { group.cancelAll() }
        return try await body()
    }
}

extension StoredEvents {
    /// The events the tests store.
    static func forTests() throws -> StoredEvents {
        var events = StoredEvents()
        try events.register(PostStoreConformance.Sample.self, as: "sample")
        return events
    }
}

/// A store for the tests on `client`, migrated.
func migratedStore(
    _ client: PostgresClient, consumer: String = PostgresPostStore.defaultConsumerName(),
    lease: Duration = .seconds(30), clock: any Clock<Duration> = ContinuousClock()
) async throws -> PostgresPostStore {
    let store = try PostgresPostStore(
        client: client, events: try .forTests(), consumer: consumer, lease: lease, clock: clock,
        logger: TestServer.quiet)
    try await store.migrate()
    return store
}

/// A post of a sample numbered `number` on `key`.
func samplePost(_ number: Int, key: EventSystem.OrderingKey = "k") -> EventSystem.StoredPost {
    EventSystem.StoredPost(
        id: EventID(), key: key, entry: "desk", payload: .event(PostStoreConformance.Sample(number: number)))
}

import Foundation
import Logging
import PostgresNIO

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The PostgreSQL server of the two-instance test: the one `RESPONDERCHAIN_POSTGRES_URL` names (a
/// user allowed to create databases), or else a throwaway cluster that the PostgreSQL package's
/// `scripts/pg-cluster` starts, and that stops by itself once this process exits.
enum PostgresTestServer {
    /// Why the test cannot run here, or `nil` when it can: no URL given and no `initdb`.
    static var unavailableReason: String? {
        let environment = ProcessInfo.processInfo.environment
        if let url = environment["RESPONDERCHAIN_POSTGRES_URL"], !url.isEmpty { return nil }
        var folders =
            (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql"))?
            .map { "/usr/lib/postgresql/\($0)/bin" } ?? []
        if let bin = environment["PG_BIN"] { folders.append(bin) }
        if folders.contains(where: { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }) {
            return nil
        }
        return "no PostgreSQL: neither RESPONDERCHAIN_POSTGRES_URL nor initdb (apt-get install postgresql)"
    }

    /// Whether the test can run here; if not, it says why on the standard output.
    static var isAvailable: Bool {
        guard let reason = unavailableReason else { return true }
        print("skipping the PostgreSQL tests: \(reason)")
        return false
    }

    /// A URL of a new, empty database on the server.
    static func newDatabaseURL() async throws -> URLComponents {
        var server = try await serverURL()
        let name = "orders_test_\(UInt64.random(in: 0...UInt64.max))"
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: server.host ?? "127.0.0.1", port: server.port ?? 5432,
                username: server.user ?? "postgres",
                password: server.password, database: "postgres", tls: .disable),
            id: 1, logger: quiet)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: quiet)
        } catch {
            try? await connection.close()
            throw error
        }
        try await connection.close()
        server.path = "/\(name)"
        return server
    }

    static let quiet = Logger(label: "PostgresTestServer", factory: { _ in SwiftLogNoOpLogHandler() })

    private static let started = Task<URLComponents, any Error> {
        let environment = ProcessInfo.processInfo.environment
        let url =
            try environment["RESPONDERCHAIN_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 } ?? startCluster()
        guard let components = URLComponents(string: url) else {
            throw ClusterFailed(message: "not a URL: \(url)")
        }
        return components
    }

    private static func serverURL() async throws -> URLComponents { try await started.value }

    /// `scripts/pg-cluster start --watch <this process>`: its URL.
    private static func startCluster() throws -> String {
        let script = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "../ResponderChainPostgres/scripts/pg-cluster").path
        // To files, not pipes: the server inherits this process's descriptors, so a pipe would
        // never reach its end (see the PostgreSQL package's TestServer).
        let base = FileManager.default.temporaryDirectory.appending(path: "pg-cluster-\(UUID().uuidString)")
            .path
        defer {
            try? FileManager.default.removeItem(atPath: base + ".out")
            try? FileManager.default.removeItem(atPath: base + ".err")
        }
        let status = system(
            "/bin/bash '\(script)' start --watch \(getpid()) >'\(base).out' 2>'\(base).err' </dev/null")
        let output = (try? String(contentsOfFile: base + ".out", encoding: .utf8)) ?? ""
        guard status == 0, let url = output.split(separator: " ").first else {
            let errors = (try? String(contentsOfFile: base + ".err", encoding: .utf8)) ?? ""
            throw ClusterFailed(message: "pg-cluster start failed: \(errors)")
        }
        return String(url)
    }

    struct ClusterFailed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

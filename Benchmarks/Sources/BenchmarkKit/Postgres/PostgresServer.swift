#if RemoteAndStores
    import Foundation
    import Logging
    import PostgresNIO

    #if canImport(Glibc)
        import Glibc
    #elseif canImport(Darwin)
        import Darwin
    #endif

    /// The PostgreSQL server the store's rows run on: the one `RESPONDERCHAIN_POSTGRES_URL` names, or
    /// a throwaway cluster that ResponderChainPostgres's `scripts/pg-cluster` starts (it stops once
    /// this process exits).
    struct PostgresServer: Sendable {
        let host: String
        let port: Int
        let username: String
        let password: String?

        static let quiet = Logger(
            label: "responder-bench.postgres", factory: { _ in SwiftLogNoOpLogHandler() })

        /// The server, or `nil` (with the reason) when there is neither a URL nor an `initdb`.
        static func locate() -> Result<PostgresServer, PostgresServerUnavailable> {
            if let url = ProcessInfo.processInfo.environment["RESPONDERCHAIN_POSTGRES_URL"], !url.isEmpty {
                return parse(url)
            }
            // Benchmarks/Sources/BenchmarkKit/Postgres/ → the repository's root.
            var root = URL(filePath: #filePath)
            for _ in 0..<5 { root = root.deletingLastPathComponent() }
            let script = root.appending(path: "Integrations/ResponderChainPostgres/scripts/pg-cluster").path
            guard FileManager.default.fileExists(atPath: script) else {
                return .failure(PostgresServerUnavailable(reason: "no scripts/pg-cluster at \(script)"))
            }
            // The output goes to a file: the server inherits this process's descriptors, so a pipe
            // would never reach its end.
            let output = FileManager.default.temporaryDirectory.appending(
                path: "responder-bench-pg-\(UInt64.random(in: 0...UInt64.max)).out")
            defer { try? FileManager.default.removeItem(at: output) }
            let pid = ProcessInfo.processInfo.processIdentifier
            let status = system(
                "/bin/bash '\(script)' start --watch \(pid) >'\(output.path)' 2>/dev/null </dev/null")
            let text = ((try? String(contentsOf: output, encoding: .utf8)) ?? "")
                .trimmingCharacters(in: .whitespacesAndNewlines)
            guard status == 0, let url = text.split(separator: " ").first else {
                return .failure(
                    PostgresServerUnavailable(reason: "pg-cluster could not start a cluster (no initdb?)"))
            }
            return parse(String(url))
        }

        private static func parse(_ url: String) -> Result<PostgresServer, PostgresServerUnavailable> {
            guard let components = URLComponents(string: url), let host = components.host else {
                return .failure(PostgresServerUnavailable(reason: "not a postgres:// URL: \(url)"))
            }
            return .success(
                PostgresServer(
                    host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
                    password: components.password))
        }

        /// A client configuration for `database`, its connections named `name`.
        func configuration(database: String, name: String = "responder-bench") -> PostgresClient.Configuration
        {
            var configuration = PostgresClient.Configuration(
                host: host, port: port, username: username, password: password, database: database,
                tls: .disable)
            configuration.options.additionalStartupParameters = [("application_name", name)]
            configuration.options.maximumConnections = 40
            return configuration
        }

        /// A new, empty database; returns its name.
        func newDatabase() async throws -> String {
            let name = "responderchain_bench_\(UInt64.random(in: 0...UInt64.max))"
            let connection = try await PostgresConnection.connect(
                configuration: .init(
                    host: host, port: port, username: username, password: password, database: "postgres",
                    tls: .disable),
                id: 1, logger: Self.quiet)
            do {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: Self.quiet)
            } catch {
                try? await connection.close()
                throw error
            }
            try await connection.close()
            return name
        }
    }

    /// Why the benchmark has no server.
    struct PostgresServerUnavailable: Error {
        let reason: String
    }

    /// Runs `body` with a running client on `configuration`.
    func withClient<T: Sendable>(
        _ configuration: PostgresClient.Configuration, _ body: (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: configuration, backgroundLogger: PostgresServer.quiet)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(client)
        }
    }
#endif

#if RemoteAndStores
    import Foundation
    import Logging
    import PostgresNIO
    import ResponderChain
    import ResponderChainPostgres

    /// The consumer processes of the PostgreSQL store's multi-process rows: responder-bench again, run
    /// as `responder-bench postgres-consume HOST PORT USER DATABASE CLAIM_LIMIT NAME`: an event system
    /// consuming the store, whose desk handles the jobs, until it is terminated.
    package enum PostgresConsumerProcess {
        /// The first argument that makes responder-bench a consumer process.
        package static let command = "postgres-consume"

        /// Starts a consumer process named `name` on `database`.
        static func spawn(_ server: PostgresServer, _ database: String, claimLimit: Int, name: String) throws
            -> Process
        {
            let process = Process()
            process.executableURL = Bundle.main.executableURL ?? URL(filePath: CommandLine.arguments[0])
            process.arguments = [
                command, server.host, "\(server.port)", server.username, database, "\(claimLimit)", name,
            ]
            var environment = ProcessInfo.processInfo.environment
            if let password = server.password { environment["PGPASSWORD"] = password }
            process.environment = environment
            try process.run()
            return process
        }

        /// Waits until `process` listens and claims (two connections named after it).
        static func waitUntilListening(_ process: Process, on client: PostgresClient) async throws {
            let name = process.arguments?.last ?? ""
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                var count = 0
                for try await (found, ) in try await client.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = \(name)",
                    logger: PostgresServer.quiet
                ).decode((Int.self,)) {
                    count = found
                }
                if count >= 2 { return }
                guard process.isRunning else { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            throw PostgresServerUnavailable(reason: "consumer process \(name) did not start")
        }

        /// The child's side: consumes until terminated.
        package static func main(_ arguments: [String]) async throws {
            guard arguments.count == 6, let port = Int(arguments[1]), let claimLimit = Int(arguments[4])
            else {
                FileHandle.standardError.write(
                    Data(
                        "usage: responder-bench postgres-consume HOST PORT USER DATABASE CLAIM_LIMIT NAME\n"
                            .utf8)
                )
                exit(2)
            }
            let server = PostgresServer(
                host: arguments[0], port: port, username: arguments[2],
                password: ProcessInfo.processInfo.environment["PGPASSWORD"])
            let name = arguments[5]
            let client = PostgresClient(
                configuration: server.configuration(database: arguments[3], name: name),
                backgroundLogger: PostgresServer.quiet)
            let store = try PostgresPostStore(
                client: client, events: try PostgresStoreRun.events(), consumer: name,
                logger: PostgresServer.quiet)
            let system = EventSystem(storage: .shared(store))
            try system.register(PostgresJobDesk(system: system), as: "desk")
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await client.run() }
                group.addTask { try await store.run() }
                system.startConsuming(claimingUpTo: claimLimit, pollInterval: .seconds(1))
                // Only a signal ends this process.
                let (never, keptOpen) = AsyncStream.makeStream(of: Void.self)
                for await _ in never {}
                keptOpen.finish()
            }
        }
    }
#endif

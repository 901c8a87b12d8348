internal import Logging
internal import PostgresNIO

extension PostgresPostStore {
    /// Runs `body` on a connection of the client's pool, waiting at most
    /// ``connectionRequestTimeout`` for one to come free; its errors named by `operation`.
    ///
    /// `PostgresClient` queues a request for a connection until one comes free, without a time
    /// limit: while the application holds every connection (or the server cannot be reached),
    /// a store operation would wait silently. Here the connection is leased by a child task
    /// that hands it over and holds the lease until `body` is done; if none came within the
    /// timeout, the request is cancelled and the operation throws
    /// ``PostgresPostStoreError/connectionUnavailable(operation:waited:)``, having run nothing.
    func withConnection<T>(
        _ operation: String, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let client = self.client
        let timeout = connectionRequestTimeout
        let (handover, handing) = AsyncThrowingStream.makeStream(of: PostgresConnection.self)
        let (done, finishing) = AsyncStream.makeStream(of: Never.self)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                do {
                    try await client.withConnection { connection in
                        handing.yield(connection)
                        // Held until `body` is done (or the wait was given up: cancelled).
                        for await _ in done {}
                    }
                    handing.finish()
                } catch {
                    handing.finish(throwing: error)
                }
            }
            let connection: PostgresConnection
            do {
                connection = try await Self.first(of: handover, within: timeout, on: clock)
            } catch {
                group.cancelAll()
                if case ConnectionWait.timedOut = error {
                    throw PostgresPostStoreError.connectionUnavailable(operation: operation, waited: timeout)
                }
                throw PostgresPostStoreError.wrapping(error, operation: operation)
            }
            // Gives the connection back once `body` is done; its errors are its own.
            defer { finishing.finish() }
            return try await body(connection)
        }
    }

    /// Runs `body` (one statement, in its own transaction) on a connection leased as
    /// ``withConnection(_:_:)`` leases it, its errors named by `operation`.
    func onConnection<T: Sendable>(
        _ operation: String, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await run(operation) { try await withConnection(operation, body) }
    }

    /// Why no connection was handed over.
    private enum ConnectionWait: Error {
        case timedOut
        case poolEnded
    }

    /// The first connection `handover` yields, or ``ConnectionWait/timedOut`` after `timeout`
    /// on `clock` (the store's).
    private static func first(
        of handover: AsyncThrowingStream<PostgresConnection, any Error>, within timeout: Duration,
        on clock: any Clock<Duration>
    ) async throws -> PostgresConnection {
        try await withThrowingTaskGroup(of: PostgresConnection?.self) { group in
            group.addTask {
                for try await connection in handover { return connection }
                throw ConnectionWait.poolEnded
            }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let connection = try await group.next() ?? nil else { throw ConnectionWait.timedOut }
            return connection
        }
    }

    /// Runs `body` in one transaction on a connection of the pool, its errors named by
    /// `operation`. The transaction waits at most ``lockTimeout`` for any lock (`SET LOCAL
    /// lock_timeout`): a row or table that another transaction holds ends it typed
    /// (``PostgresPostStoreError/lockTimeout(operation:underlying:)``) instead of hanging the
    /// consumer.
    func transaction<T: Sendable>(
        _ operation: String, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let milliseconds = max(1, lockTimeout.milliseconds)
        return try await withConnection(operation) { connection in
            do {
                return try await connection.withTransaction(logger: logger) { connection in
                    try await connection.query(
                        "SELECT set_config('lock_timeout', \(String(milliseconds)), true)", logger: logger)
                    return try await body(connection)
                }
            } catch {
                throw PostgresPostStoreError.wrapping(error, operation: operation)
            }
        }
    }
}

extension Duration {
    /// The duration in whole milliseconds.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}

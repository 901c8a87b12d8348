internal import Logging
internal import PostgresNIO
internal import Synchronization

extension PostgresPostStore {
    /// Runs `body` on a connection of the client's pool, waiting at most
    /// ``connectionRequestTimeout`` for one to come free; its errors named by `operation`.
    ///
    /// `PostgresClient` queues a request for a connection until one comes free, without a time
    /// limit: while the application holds every connection (or the server cannot be reached),
    /// a store operation would wait silently. Here a task leases the connection and runs `body`
    /// on it; if none came within the timeout, the operation throws
    /// ``PostgresPostStoreError/connectionUnavailable(operation:waited:)``, having run nothing
    /// (the request stays queued, and the connection it gets is given back at once: cancelling
    /// a queued request is not needed, nor relied on).
    ///
    /// A connection that closes while `body` runs on it ends the operation
    /// (``PostgresPostStoreError/unreachable(operation:underlying:)``), even if a query of
    /// `body` is never answered: postgres-nio 1.33 can leave a query written just as its
    /// connection closes waiting for ever (``ConnectionCloseWatch``).
    func withConnection<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let client = self.client
        let watch = self.closeWatch
        let timeout = connectionRequestTimeout
        let clock = self.clock
        let run = ConnectionOperation<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                run.start(continuation)
                let work = Task {
                    do {
                        try await client.withConnection { connection in
                            guard run.begin() else { return }
                            // A connection the pool handed over as it closed: nothing is written
                            // on it (a query written now may never be answered).
                            guard !connection.isClosed else {
                                return run.end(
                                    .failure(
                                        PostgresPostStoreError.unreachable(
                                            operation: operation, underlying: ConnectionClosed())))
                            }
                            // `body` runs in a task of its own, so that the lease is given
                            // back when the connection closes even if `body` never returns.
                            await withCheckedContinuation { (released: CheckedContinuation<Void, Never>) in
                                let release = ReleaseOnce(released)
                                let registration = watch.watch(connection) {
                                    run.end(
                                        .failure(
                                            PostgresPostStoreError.unreachable(
                                                operation: operation, underlying: ConnectionClosed())))
                                    release.resume()
                                }
                                run.keep(
                                    body: Task {
                                        do {
                                            run.end(.success(try await body(connection)))
                                        } catch {
                                            // `body`'s errors are its own (the user's, in an inbox
                                            // or an outbox, stay as they are).
                                            run.end(.failure(error))
                                        }
                                        watch.end(registration)
                                        release.resume()
                                    })
                            }
                        }
                    } catch {
                        run.end(.failure(PostgresPostStoreError.wrapping(error, operation: operation)))
                    }
                }
                let timer = Task {
                    guard (try? await clock.sleep(for: timeout)) != nil else { return }
                    run.giveUp(
                        PostgresPostStoreError.connectionUnavailable(operation: operation, waited: timeout))
                }
                run.keep(work: work, timer: timer)
            }
        } onCancel: {
            run.cancel()
        }
    }

    /// Resumes a continuation once, whoever comes first.
    final class ReleaseOnce: Sendable {
        private let continuation: Mutex<CheckedContinuation<Void, Never>?>

        init(_ continuation: CheckedContinuation<Void, Never>) {
            self.continuation = Mutex(continuation)
        }

        func resume() {
            continuation.withLock { continuation in
                defer { continuation = nil }
                return continuation
            }?.resume()
        }
    }

    /// The error of an operation whose connection closed under it.
    struct ConnectionClosed: Error, CustomStringConvertible {
        var description: String { "the connection closed" }
    }

    /// Runs `body` (one statement, in its own transaction) on a connection leased as
    /// ``withConnection(_:_:)`` leases it, its errors named by `operation`.
    func onConnection<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await run(operation) { try await withConnection(operation, body) }
    }

    /// Runs `body` in one transaction on a connection of the pool, its errors named by
    /// `operation`. The transaction waits at most ``lockTimeout`` for any lock (`SET LOCAL
    /// lock_timeout`): a row or table that another transaction holds ends it typed
    /// (``PostgresPostStoreError/lockTimeout(operation:underlying:)``) instead of hanging the
    /// consumer.
    func transaction<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let milliseconds = max(1, lockTimeout.milliseconds)
        let logger = self.logger
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

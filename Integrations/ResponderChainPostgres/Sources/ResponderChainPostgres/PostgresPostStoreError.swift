internal import PostgresNIO

/// What a ``PostgresPostStore`` throws: a database it cannot use, a lease it no longer holds, a
/// row it cannot read, or input it cannot keep. Each names what failed.
///
/// The post office turns a throw from ``PostgresPostStore/store(_:)`` into rejected posts
/// (`Outcome.Rejection.Reason.notStored`), so that nothing is accepted that was not written.
///
/// ```swift
/// do {
///     try await store.inbox.handleOnce(context.eventID) { connection in … }
/// } catch PostgresPostStoreError.lostLease(let key, _) {
///     logger.warning("another consumer owns \(key) now: its delivery does the work")
/// }
/// ```
public enum PostgresPostStoreError: Error, CustomStringConvertible {
    /// The database's schema was written by a newer version of this package (its version is
    /// higher than this binary knows): it is left untouched.
    case newerSchema(found: Int, known: Int)
    /// The ordering key's lease this store held is no longer the key's current one (another
    /// consumer claimed the key after the lease expired): an inbox transaction under it was
    /// rolled back. `token` is the lease this store held, `nil` if it held none.
    case lostLease(key: String, token: Int64?)
    /// The server could not be reached, or the connection broke, while doing `operation`; the
    /// client reconnects by itself, so the operation can be tried again.
    case unreachable(operation: String, underlying: any Error)
    /// No connection of the client's pool came free for `operation` within `waited` (the
    /// store's `connectionRequestTimeout`): every connection was in use, or none could be
    /// opened. Nothing of the operation ran; it can be tried again.
    case connectionUnavailable(operation: String, waited: Duration)
    /// `operation` waited longer than the store's `lockTimeout` for a row or table that another
    /// transaction holds (SQLSTATE 55P03); its transaction was rolled back, so it can be tried
    /// again.
    case lockTimeout(operation: String, underlying: any Error)
    /// The server refused `operation` (an SQL error, a conflict, a constraint).
    case failed(operation: String, underlying: any Error)
    /// A stored row cannot be read: `column` holds what this binary does not understand.
    case malformedRow(seq: Int64, column: String, reason: String)
    /// The event's type is not registered in the store's `StoredEvents`: it has no stored name.
    case unregisteredEvent(typeName: String)
    /// The event's type is registered but did not encode.
    case encodingFailed(typeName: String, reason: String)
    /// A setting is out of range (a lease or retention that is not positive, an empty consumer
    /// name).
    case invalidSetting(String)

    /// What went wrong, as a sentence. A server error shows its SQLSTATE and message; nothing
    /// else of the query (its bound values may be private).
    public var description: String {
        switch self {
        case .newerSchema(let found, let known):
            "the database's ResponderChain schema is version \(found), and this binary knows versions up to \(known)"
        case .lostLease(let key, let token):
            "the lease on ordering key \"\(key)\"\(token.map { " (token \($0))" } ?? "") is no longer current: another consumer holds the key"
        case .unreachable(let operation, let underlying):
            "\(operation): PostgreSQL is unreachable: \(Self.describe(underlying))"
        case .connectionUnavailable(let operation, let waited):
            "\(operation): no connection of the client's pool came free within \(waited) (the pool is exhausted, or the server unreachable)"
        case .lockTimeout(let operation, let underlying):
            "\(operation): waited past the lock timeout for a row or table another transaction holds: \(Self.describe(underlying))"
        case .failed(let operation, let underlying):
            "\(operation) failed: \(Self.describe(underlying))"
        case .malformedRow(let seq, let column, let reason):
            "stored post \(seq) cannot be read: column \(column): \(reason)"
        case .unregisteredEvent(let type):
            "\(type) is not registered in the store's StoredEvents, so it has no stored name"
        case .encodingFailed(let type, let reason): "\(type) did not encode: \(reason)"
        case .invalidSetting(let reason): "invalid setting: \(reason)"
        }
    }

    /// Whether the operation may succeed if it is tried again as it is: the server was
    /// unreachable, no connection came free in time, or a lock was held past the lock timeout.
    /// A lost lease, a refusal, a malformed row or bad input stays as it is.
    ///
    /// ```swift
    /// while true {
    ///     do {
    ///         try await store.inbox.handleOnce(id) { connection in … }
    ///         break
    ///     } catch let error as PostgresPostStoreError where error.isTransient {
    ///         try await Task.sleep(for: .milliseconds(100))
    ///     }
    /// }
    /// ```
    public var isTransient: Bool {
        switch self {
        case .unreachable, .connectionUnavailable, .lockTimeout: true
        case .newerSchema, .lostLease, .failed, .malformedRow, .unregisteredEvent, .encodingFailed,
            .invalidSetting:
            false
        }
    }

    /// A PostgreSQL error without its query: its code, and the server's SQLSTATE and message.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return String(describing: error) }
        var text = "\(error.code)"
        if let info = error.serverInfo {
            text += " \(info[.sqlState] ?? "?"): \(info[.message] ?? "")"
        } else if let underlying = error.underlying {
            text += ": \(underlying)"
        }
        return text
    }

    /// The store's error for `error`, thrown while doing `operation`: a store error as it is,
    /// a transaction's error by what failed in it, a lock not granted within the lock timeout as
    /// ``lockTimeout(operation:underlying:)``, a server shutting down or starting up as
    /// ``unreachable(operation:underlying:)``, a server's refusal as ``failed(operation:underlying:)``,
    /// anything else (a broken or refused connection, a closed pool) as
    /// ``unreachable(operation:underlying:)``.
    static func wrapping(_ error: any Error, operation: String) -> any Error {
        if let error = error as? PostgresPostStoreError { return error }
        if let transaction = error as? PostgresTransactionError {
            if let inner = transaction.closureError {
                // The body's own error (a store error, or the user's in an inbox or outbox).
                return inner is PSQLError ? wrapping(inner, operation: operation) : inner
            }
            let inner = transaction.beginError ?? transaction.commitError ?? transaction.rollbackError
            return wrapping(inner ?? error, operation: operation)
        }
        if error is CancellationError { return error }
        if let error = error as? PSQLError, error.code == .server {
            let state = error.serverInfo?[.sqlState] ?? ""
            if state == PostgresError.Code.lockNotAvailable.raw {
                return PostgresPostStoreError.lockTimeout(operation: operation, underlying: error)
            }
            // A connection exception (class 08), or the server shutting down or starting up
            // (57P01 to 57P05): the server is going away or not yet back, not refusing.
            if state.hasPrefix("08") || state.hasPrefix("57P") {
                return PostgresPostStoreError.unreachable(operation: operation, underlying: error)
            }
            return PostgresPostStoreError.failed(operation: operation, underlying: error)
        }
        return PostgresPostStoreError.unreachable(operation: operation, underlying: error)
    }
}

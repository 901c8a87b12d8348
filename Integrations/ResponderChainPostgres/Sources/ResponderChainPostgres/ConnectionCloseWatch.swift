internal import NIOCore
internal import PostgresNIO
internal import Synchronization

/// Tells the store's operations when the connection they run on closes.
///
/// postgres-nio 1.33 can leave a query unanswered for ever when its connection closes just as
/// the query is written (the server restarting, say): the connection's channel handler is gone,
/// so nothing fails the query's promise. An operation therefore also waits for its
/// connection's `closeFuture`, through this watch: one callback per connection (a future keeps
/// its callbacks until it completes, so one per operation would pile up on a long-lived
/// connection), which ends every operation registered on the connection at its close.
final class ConnectionCloseWatch: Sendable {
    /// The operations running on each open connection, by the connection's object identity.
    private let running = Mutex<[ObjectIdentifier: [UInt64: @Sendable () -> Void]]>([:])
    private let nextToken = Atomic<UInt64>(0)

    /// A registration, to end with ``end(_:)``.
    struct Registration {
        fileprivate let connection: ObjectIdentifier
        fileprivate let token: UInt64
    }

    /// Calls `closed` once if `connection` closes before ``end(_:)`` (at once if it is closed
    /// already).
    func watch(_ connection: PostgresConnection, closed: @escaping @Sendable () -> Void) -> Registration {
        let key = ObjectIdentifier(connection)
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).newValue
        let firstOnConnection = running.withLock { running in
            let first = running[key] == nil
            running[key, default: [:]][token] = closed
            return first
        }
        if firstOnConnection {
            connection.closeFuture.whenComplete { [weak self] _ in self?.connectionClosed(key) }
        }
        return Registration(connection: key, token: token)
    }

    /// The operation of `registration` is over: a later close no longer concerns it.
    func end(_ registration: Registration) {
        running.withLock { running in
            _ = running[registration.connection]?.removeValue(forKey: registration.token)
        }
    }

    private func connectionClosed(_ key: ObjectIdentifier) {
        // The entry goes with its connection: an identity reused by a later connection starts
        // a new one, with a callback of its own.
        let callbacks = running.withLock { $0.removeValue(forKey: key) } ?? [:]
        for callback in callbacks.values { callback() }
    }
}

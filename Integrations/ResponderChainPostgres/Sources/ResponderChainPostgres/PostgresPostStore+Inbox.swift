internal import Logging
public import PostgresNIO
public import ResponderChain
internal import Synchronization

extension PostgresPostStore {
    /// The events whose effects are done, by identifier, written in the application's own
    /// transaction: a handler does its writes and marks its event handled together, so that a
    /// redelivery (delivery is at least once) changes nothing twice.
    ///
    /// ```swift
    /// desk.handle(OrderPlaced.self) { event, context in
    ///     try await store.inbox.handleOnce(context.eventID) { connection in
    ///         try await connection.query(
    ///             "INSERT INTO shipment (order_id) VALUES (\(event.id))", logger: logger)
    ///     }
    ///     return .handled
    /// }
    /// ```
    ///
    /// The transaction is fenced: if the post's key is leased, it commits only while the lease
    /// this store holds is the key's current one (the key's row is locked until the commit, so
    /// no claim can take it in between). Otherwise it throws
    /// ``PostgresPostStoreError/lostLease(key:token:)`` and nothing of it is kept: the key's
    /// new owner delivers the post again and does the work. A post of a key no consumer leases
    /// (recovered with `recoverStoredPosts()`, say) is not fenced.
    public struct Inbox: Sendable {
        let store: PostgresPostStore

        /// Runs `body` in a transaction and records `id` as handled in it, unless `id` is
        /// recorded already; returns whether `body` ran. If `body` throws, nothing it wrote is
        /// kept and `id` is not recorded: a redelivery runs it again.
        ///
        /// - Throws: ``PostgresPostStoreError/lostLease(key:token:)`` if another consumer holds
        ///   the post's key now; `body`'s error; or what the database did.
        @discardableResult
        public func handleOnce(
            _ id: EventID, _ body: @escaping @Sendable (PostgresConnection) async throws -> Void
        ) async throws
            -> Bool
        {
            let store = self.store
            let (epoch, sequence) = id.columns
            return try await store.transaction("handle \(id) once") { connection in
                try await store.checkFence(of: id, on: connection)
                var recorded = false
                for try await _ in try await connection.query(
                    """
                    INSERT INTO responderchain_inbox (id_epoch, id_sequence) VALUES (\(epoch), \(sequence))
                    ON CONFLICT DO NOTHING RETURNING 1
                    """, logger: store.logger)
                {
                    recorded = true
                }
                guard recorded else { return false }
                try await body(connection)
                return true
            }
        }

        /// Whether `id` is recorded as handled.
        public func hasHandled(_ id: EventID) async throws -> Bool {
            let (epoch, sequence) = id.columns
            return try await store.run("read the inbox") {
                try await store.withConnection("read the inbox") { connection in
                    var found = false
                    for try await _ in try await connection.query(
                        "SELECT 1 FROM responderchain_inbox WHERE id_epoch = \(epoch) AND id_sequence = \(sequence)",
                        logger: store.logger)
                    {
                        found = true
                    }
                    return found
                }
            }
        }
    }

    /// The inbox of events whose effects are done (exactly-once effects on the application's
    /// tables in the same database).
    public var inbox: Inbox { Inbox(store: self) }

    /// Throws ``PostgresPostStoreError/lostLease(key:token:)`` unless `id`'s key's current lease
    /// is the one the post is delivered under in this task (``EventSystem/Lease/fix(delivering:)``);
    /// outside its delivery, unless the key's current lease is owned by this consumer, or no
    /// consumer leases the key and this store holds no lease on it. Locks the key's row until
    /// the transaction ends.
    func checkFence(of id: EventID, on connection: PostgresConnection) async throws {
        let (epoch, sequence) = id.columns
        var key: String?
        for try await (found, ) in try await connection.query(
            "SELECT ordering_key FROM responderchain_posts WHERE id_epoch = \(epoch) AND id_sequence = \(sequence)",
            logger: logger
        ).decode((String,).self) {
            key = found
        }
        // Not a post of this store (or one pruned long after it finished): nothing to fence.
        guard let key else { return }
        var current: (token: Int64, owner: String?)?
        for try await (token, owner) in try await connection.query(
            "SELECT token, owner FROM responderchain_keys WHERE key = \(key) FOR SHARE", logger: logger
        ).decode((Int64, String?).self) {
            current = (token, owner)
        }
        // Written while the post is delivered here: its lease must be the key's current one,
        // the token included. (A later claim of the key by this consumer moves the post to its
        // lease while the post is still in the key's order; one that found it out of order,
        // behind posts it delivered again, leaves it under its earlier lease, refused here.)
        if let lease = EventSystem.Lease.fix(delivering: id) {
            guard let current, current.owner == consumer, current.token == lease.token else {
                // The attempt cannot make its effect here: it uses up no try of a retry policy.
                EventSystem.Lease.lost(delivering: id)
                throw PostgresPostStoreError.lostLease(key: key, token: lease.token)
            }
            return
        }
        // Written outside the post's delivery: the key's current lease must be this consumer's,
        // whichever of its claims took it.
        if current?.owner == consumer { return }
        let held = state.withLock { $0.held[key] }
        if held != nil || current?.owner != nil {
            throw PostgresPostStoreError.lostLease(key: key, token: held)
        }
    }
}

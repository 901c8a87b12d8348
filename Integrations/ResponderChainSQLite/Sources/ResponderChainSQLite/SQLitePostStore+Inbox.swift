public import GRDB
public import ResponderChain

extension SQLitePostStore {
    /// The events whose effects are done, by identifier: a handler that writes to the store's
    /// file does its writes and marks its event handled in one transaction, so that the
    /// redelivery of a post after a crash (delivery is at least once) changes nothing twice.
    ///
    /// ```swift
    /// desk.handle(OrderPlaced.self) { event, context in
    ///     try await store.inbox.handleOnce(context.eventID) { db in
    ///         try db.execute(sql: "INSERT INTO shipment (order_id) VALUES (?)", arguments: [event.id])
    ///     }
    ///     return .handled
    /// }
    /// ```
    ///
    /// An entry is kept for the store's ``SQLitePostStore/retention``; a post is redelivered
    /// only until it is marked finished, which follows its handling within moments.
    public struct Inbox: Sendable {
        let store: SQLitePostStore

        /// Runs `body` and records `id` as handled, in one transaction, unless `id` is recorded
        /// already; returns whether `body` ran. If `body` throws, nothing it wrote is kept and
        /// `id` is not recorded: a redelivery runs it again.
        @discardableResult
        public func handleOnce(_ id: EventID, _ body: @escaping @Sendable (Database) throws -> Void)
            async throws -> Bool
        {
            let now = store.wallClock.nanoseconds
            return try await store.transaction { db in
                let seen =
                    try Bool.fetchOne(
                        db, sql: "SELECT 1 FROM responder_inbox WHERE event_id = ?",
                        arguments: [id.columnBytes]) ?? false
                guard !seen else { return false }
                try body(db)
                try db.execute(
                    sql: "INSERT INTO responder_inbox (event_id, handled_at_ns) VALUES (?, ?)",
                    arguments: [id.columnBytes, now])
                return true
            }
        }

        /// Whether `id` is recorded as handled.
        public func hasHandled(_ id: EventID) async throws -> Bool {
            try await store.read { db in
                try Bool.fetchOne(
                    db, sql: "SELECT 1 FROM responder_inbox WHERE event_id = ?", arguments: [id.columnBytes])
                    ?? false
            }
        }
    }

    /// The inbox of events whose effects are done (exactly-once effects on the store's file).
    public var inbox: Inbox { Inbox(store: self) }
}

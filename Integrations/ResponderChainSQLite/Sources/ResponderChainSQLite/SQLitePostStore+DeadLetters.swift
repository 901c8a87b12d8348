internal import GRDB
public import ResponderChain

/// The dead letters an ``SQLitePostStore`` keeps: rows of `responder_post` that finished with
/// `dead_lettered = 1`, which pruning leaves alone until they are redriven or purged.
extension SQLitePostStore {
    /// The dead letters `query` matches, in post order; an event's name is the name it is
    /// stored under (``StoredEvents``). A query whose ``EventSystem/DeadLetterQuery/after`` names a
    /// post the file no longer holds matches nothing.
    ///
    /// - Throws: ``SQLitePostStoreError/malformedRow(sequence:reason:)`` for a row this binary
    ///   cannot read, or the database's error.
    public func deadLetters(matching query: EventSystem.DeadLetterQuery) async throws
        -> [EventSystem.StoredDeadLetter]
    {
        let now = wallClock.nanoseconds
        var conditions = ["dead_lettered = 1"]
        var arguments = StatementArguments()
        func member(_ column: String, of values: [String]?) {
            guard let values else { return }
            conditions.append(
                "\(column) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))")
            arguments += StatementArguments(values)
        }
        if let ids = query.ids {
            conditions.append("id IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))")
            arguments += StatementArguments(ids.sorted().map(\.columnBytes))
        }
        member("type_name", of: query.eventNames.map { $0.sorted() })
        member("ordering_key", of: query.keys.map { $0.map(\.name).sorted() })
        member("outcome_kind", of: query.outcomes.map { $0.map(\.rawValue).sorted() })
        if let minimumAge = query.minimumAge {
            conditions.append("finished_at_ns <= ?")
            arguments += [now.subtractingReportingOverflow(minimumAge.nanoseconds).partialValue]
        }
        if let maximumAge = query.maximumAge {
            conditions.append("finished_at_ns >= ?")
            arguments += [now.subtractingReportingOverflow(maximumAge.nanoseconds).partialValue]
        }
        if let after = query.after {
            conditions.append("sequence > (SELECT sequence FROM responder_post WHERE id = ?)")
            arguments += [after.columnBytes]
        }
        arguments += [query.limit]
        let sql = """
            SELECT \(PostRow.columns), outcome_kind, outcome_description, finished_at_ns FROM responder_post
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY sequence LIMIT ?
            """
        let found = try await database.read { [arguments] db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
                let post = try PostRow(row)
                guard let outcome = try PostRow.outcome(row, sequence: post.sequence) else {
                    throw SQLitePostStoreError.malformedRow(
                        sequence: post.sequence, reason: "a dead letter without an outcome")
                }
                let finishedAt: Int64 = try row.decode(forColumn: "finished_at_ns")
                return (post, outcome, finishedAt)
            }
        }
        return found.map { post, outcome, finishedAt in
            EventSystem.StoredDeadLetter(
                post: post.post(events: events, now: now), outcome: outcome,
                age: .nanoseconds(max(0, now.subtractingReportingOverflow(finishedAt).partialValue)))
        }
    }

    /// Makes the dead letters `ids` unfinished again, with no failed attempts, in one
    /// transaction; returns them in post order.
    public func redrive(_ ids: [EventID]) async throws -> [EventSystem.StoredPost] {
        guard !ids.isEmpty else { return [] }
        let rows = try await transaction { db in
            let reopen = try db.cachedStatement(
                sql: """
                    UPDATE responder_post SET finished_at_ns = NULL, outcome_kind = NULL, outcome_description = NULL,
                        dead_lettered = 0, failed_attempts = NULL, retry_at_ns = NULL
                    WHERE id = ? AND dead_lettered = 1
                    RETURNING \(PostRow.columns)
                    """)
            var rows: [PostRow] = []
            for id in ids {
                rows += try Row.fetchAll(reopen, arguments: [id.columnBytes]).map { try PostRow($0) }
            }
            return rows.sorted { $0.sequence < $1.sequence }
        }
        let now = wallClock.nanoseconds
        return rows.map { $0.post(events: events, now: now) }
    }

    /// Deletes the dead letters `ids`; returns how many there were.
    public func purgeDeadLetters(_ ids: [EventID]) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        return try await transaction { db in
            let delete = try db.cachedStatement(
                sql: "DELETE FROM responder_post WHERE id = ? AND dead_lettered = 1")
            var purged = 0
            for id in ids {
                try delete.execute(arguments: [id.columnBytes])
                purged += db.changesCount
            }
            return purged
        }
    }
}

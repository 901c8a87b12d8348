internal import PostgresNIO
public import ResponderChain

/// The dead letters a ``PostgresPostStore`` keeps: rows of `responderchain_posts` that finished
/// with `dead_lettered_at_us` set, which pruning leaves alone until they are redriven or purged.
extension PostgresPostStore {
    /// The dead letters `query` matches, in post order; an event's name is the name it is stored
    /// under (``StoredEvents``), its age counted on the store's clock. A query whose
    /// ``EventSystem/DeadLetterQuery/after`` names a post the database no longer holds matches
    /// nothing.
    public func deadLetters(matching query: EventSystem.DeadLetterQuery) async throws
        -> [EventSystem.StoredDeadLetter]
    {
        let now = try await wallNow()
        let idEpochs = query.ids.map { $0.sorted().map(\.columns.epoch) }
        let idSequences = query.ids.map { $0.sorted().map(\.columns.sequence) }
        let names = query.eventNames.map { $0.sorted() }
        let keys = query.keys.map { $0.map(\.name).sorted() }
        let kinds = query.outcomes.map { $0.map(\.rawValue).sorted() }
        let endedBy = query.minimumAge.map { now.subtractingReportingOverflow($0.microseconds).partialValue }
        let endedSince = query.maximumAge.map {
            now.subtractingReportingOverflow($0.microseconds).partialValue
        }
        let (afterEpoch, afterSequence) = query.after?.columns ?? (0, 0)
        let hasAfter = query.after != nil
        let limit = query.limit
        let found = try await run("read dead letters") {
            try await self.withConnection("read dead letters") { connection in
                var found: [(PostRow, EventSystem.StoredOutcome, Int64)] = []
                for try await row in try await connection.query(
                    """
                    SELECT \(unescaped: PostRow.columns), outcome_kind, outcome_description, dead_lettered_at_us
                    FROM responderchain_posts
                    WHERE dead_lettered_at_us IS NOT NULL
                        AND (\(idEpochs)::bigint[] IS NULL OR (id_epoch, id_sequence) IN
                            (SELECT * FROM unnest(\(idEpochs)::bigint[], \(idSequences)::bigint[])))
                        AND (\(names)::text[] IS NULL OR type_name = ANY(\(names)::text[]))
                        AND (\(keys)::text[] IS NULL OR ordering_key = ANY(\(keys)::text[]))
                        AND (\(kinds)::text[] IS NULL OR outcome_kind = ANY(\(kinds)::text[]))
                        AND (\(endedBy)::bigint IS NULL OR dead_lettered_at_us <= \(endedBy)::bigint)
                        AND (\(endedSince)::bigint IS NULL OR dead_lettered_at_us >= \(endedSince)::bigint)
                        AND (NOT \(hasAfter) OR seq > (SELECT seq FROM responderchain_posts
                            WHERE id_epoch = \(afterEpoch) AND id_sequence = \(afterSequence)))
                    ORDER BY seq LIMIT \(limit)
                    """, logger: self.logger)
                {
                    let post = try PostRow(row)
                    let cells = row.makeRandomAccess()
                    let kind: String?
                    let description: String?
                    let endedAt: Int64
                    do {
                        kind = try cells["outcome_kind"].decode(String?.self)
                        description = try cells["outcome_description"].decode(String?.self)
                        endedAt = try cells["dead_lettered_at_us"].decode(Int64.self)
                    } catch {
                        throw PostgresPostStoreError.malformedRow(
                            seq: post.seq, column: "outcome_kind", reason: "\(error)")
                    }
                    guard let outcome = try Self.outcome(kind: kind, description: description, seq: post.seq)
                    else {
                        throw PostgresPostStoreError.malformedRow(
                            seq: post.seq, column: "outcome_kind", reason: "a dead letter without an outcome")
                    }
                    found.append((post, outcome, endedAt))
                }
                return found
            }
        }
        return found.map { post, outcome, endedAt in
            EventSystem.StoredDeadLetter(
                post: post.post(events: events, now: now), outcome: outcome,
                age: .microseconds(max(0, now.subtractingReportingOverflow(endedAt).partialValue)))
        }
    }

    /// Makes the dead letters `ids` unfinished again, with no failed attempts, in one
    /// statement, and notifies the listening consumers; returns them in post order.
    public func redrive(_ ids: [EventID]) async throws -> [EventSystem.StoredPost] {
        guard !ids.isEmpty else { return [] }
        let epochs = ids.map(\.columns.epoch)
        let sequences = ids.map(\.columns.sequence)
        let channel = Self.channel
        let rows = try await transaction("redrive \(ids.count) dead letters") { connection in
            var rows: [PostRow] = []
            for try await row in try await connection.query(
                """
                WITH reopened AS (
                    UPDATE responderchain_posts p SET finished_at = NULL, outcome_kind = NULL,
                        outcome_description = NULL, dead_lettered_at_us = NULL, failed_attempts = NULL,
                        retry_at_us = NULL
                    FROM unnest(\(epochs)::bigint[], \(sequences)::bigint[]) AS r(epoch, sequence)
                    WHERE p.id_epoch = r.epoch AND p.id_sequence = r.sequence AND p.dead_lettered_at_us IS NOT NULL
                    RETURNING p.*
                ), notified AS (
                    SELECT pg_notify(\(channel), 'p') FROM (SELECT 1 FROM reopened LIMIT 1) AS any_reopened
                )
                SELECT \(unescaped: PostRow.columns(of: "reopened")) FROM reopened
                    LEFT JOIN (SELECT count(*) FROM notified) AS sent ON true
                ORDER BY reopened.seq
                """, logger: self.logger)
            {
                rows.append(try PostRow(row))
            }
            return rows
        }
        let now = try await wallNow()
        return rows.map { $0.post(events: events, now: now) }
    }

    /// Deletes the dead letters `ids`; returns how many there were.
    public func purgeDeadLetters(_ ids: [EventID]) async throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let epochs = ids.map(\.columns.epoch)
        let sequences = ids.map(\.columns.sequence)
        return try await transaction("purge \(ids.count) dead letters") { connection in
            var purged = 0
            for try await (count, ) in try await connection.query(
                """
                WITH purged AS (
                    DELETE FROM responderchain_posts p
                    USING unnest(\(epochs)::bigint[], \(sequences)::bigint[]) AS r(epoch, sequence)
                    WHERE p.id_epoch = r.epoch AND p.id_sequence = r.sequence AND p.dead_lettered_at_us IS NOT NULL
                    RETURNING 1
                )
                SELECT count(*)::bigint FROM purged
                """, logger: self.logger
            ).decode((Int64,).self) {
                purged = Int(count)
            }
            return purged
        }
    }
}

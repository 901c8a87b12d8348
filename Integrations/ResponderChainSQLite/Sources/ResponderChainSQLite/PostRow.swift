internal import Foundation
internal import GRDB
internal import ResponderChain
internal import ResponderChainStoredEvents

/// One row of `responder_post`, as written or as read (without its outcome), with the event as
/// bytes: encoding and decoding happen outside the writer's transaction.
struct PostRow: Sendable {
    var sequence: Int64 = 0
    let id: EventID
    let key: String
    let entry: String
    let typeName: String
    let schemaVersion: Int
    let payload: Data
    let idempotencyKey: String?
    let deadlineNanoseconds: Int64?
    let traceContext: [String: String]
    /// Its failed attempts (none for a new post).
    var failedAttempts = StoredFailedAttempts()
    /// When its next attempt may begin, on the wall clock; `nil` for now.
    var retryAtNanoseconds: Int64?

    /// The row for `post`, whose deadline falls `post.timeLeft` after `now`, its event encoded
    /// by `encoder`.
    ///
    /// - Throws: ``SQLitePostStoreError`` if the event is not registered or does not encode.
    init(
        _ post: EventSystem.StoredPost, events: StoredEvents, encoder: JSONEncoder, now: Int64
    ) throws(SQLitePostStoreError) {
        let typeName: String
        let schemaVersion: Int
        let payload: Data
        switch post.payload {
        case .event(let event):
            do {
                (typeName, schemaVersion, payload) = try events.encode(event, with: encoder)
            } catch {
                throw SQLitePostStoreError(error)
            }
        case .undecodable(let undecodable):
            // Written back as it was read: a later binary may read it.
            (typeName, schemaVersion, payload) = (
                undecodable.typeName, undecodable.schemaVersion, Data(undecodable.bytes)
            )
        }
        self.id = post.id
        self.key = post.key.name
        self.entry = post.entry
        self.typeName = typeName
        self.schemaVersion = schemaVersion
        self.payload = payload
        self.idempotencyKey = post.idempotencyKey
        self.deadlineNanoseconds = post.timeLeft.map {
            now.addingReportingOverflow($0.nanoseconds).partialValue
        }
        self.traceContext = post.traceContext
    }

    /// The row a select of ``columns`` read.
    init(_ row: Row) throws {
        let sequence: Int64 = try row.decode(forColumn: "sequence")
        guard let id = EventID(columnBytes: try row.decode(forColumn: "id")) else {
            throw SQLitePostStoreError.malformedRow(
                sequence: sequence, reason: "its identifier is not an event identifier")
        }
        self.sequence = sequence
        self.id = id
        self.key = try row.decode(forColumn: "ordering_key")
        self.entry = try row.decode(forColumn: "entry")
        self.typeName = try row.decode(forColumn: "type_name")
        self.schemaVersion = try row.decode(forColumn: "schema_version")
        self.payload = try row.decode(forColumn: "payload")
        self.idempotencyKey = try row.decode(forColumn: "idempotency_key")
        self.deadlineNanoseconds = try row.decode(forColumn: "deadline_ns")
        // A trace context that does not read is no reason to hold the post: it goes on untraced.
        let trace: String? = try row.decode(forColumn: "trace_context")
        self.traceContext =
            trace.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) } ?? [:]
        self.failedAttempts = try Self.failedAttempts(
            row.decode(forColumn: "failed_attempts"), sequence: sequence)
        self.retryAtNanoseconds = try row.decode(forColumn: "retry_at_ns")
    }

    /// The failed attempts in row `sequence`'s `failed_attempts` column (`json`).
    ///
    /// - Throws: ``SQLitePostStoreError/malformedRow(sequence:reason:)`` when they do not read.
    static func failedAttempts(_ json: String?, sequence: Int64) throws(SQLitePostStoreError)
        -> StoredFailedAttempts
    {
        do {
            return try StoredFailedAttempts(json: json)
        } catch {
            throw .malformedRow(sequence: sequence, reason: error.description)
        }
    }

    /// The columns ``init(_:)-(Row)`` reads.
    static let columns =
        "sequence, id, ordering_key, entry, type_name, schema_version, payload, idempotency_key, deadline_ns, trace_context, failed_attempts, retry_at_ns"

    /// Writes the row, or finds the retained post holding its idempotency key.
    func insert(in db: Database, now: Int64) throws -> EventSystem.StoredPost.Acceptance {
        let trace =
            traceContext.isEmpty
            ? nil : String(decoding: try JSONEncoder().encode(traceContext), as: UTF8.self)
        // One statement in the common case: the insert itself tells a held idempotency key.
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO responder_post (id, ordering_key, entry, type_name, schema_version, payload, idempotency_key,
                    deadline_ns, trace_context, stored_at_ns) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (idempotency_key) DO NOTHING
                """)
        try statement.execute(arguments: [
            id.columnBytes, key, entry, typeName, schemaVersion, payload, idempotencyKey, deadlineNanoseconds,
            trace, now,
        ])
        guard db.changesCount == 0, let idempotencyKey else { return .stored }
        let earlier = try db.cachedStatement(
            sql:
                "SELECT sequence, id, outcome_kind, outcome_description FROM responder_post WHERE idempotency_key = ?"
        )
        guard let row = try Row.fetchOne(earlier, arguments: [idempotencyKey]) else {
            throw SQLitePostStoreError.malformedRow(
                sequence: 0, reason: "idempotency key \(idempotencyKey) conflicts with no row")
        }
        let sequence: Int64 = try row.decode(forColumn: "sequence")
        guard let earlierID = EventID(columnBytes: try row.decode(forColumn: "id")) else {
            throw SQLitePostStoreError.malformedRow(
                sequence: sequence, reason: "its identifier is not an event identifier")
        }
        return .duplicate(of: earlierID, outcome: try Self.outcome(row, sequence: sequence))
    }

    /// The outcome in a row's `outcome_kind` and `outcome_description`, if it has one.
    static func outcome(_ row: Row, sequence: Int64) throws -> EventSystem.StoredOutcome? {
        let kindName: String? = try row.decode(forColumn: "outcome_kind")
        guard let kindName else { return nil }
        guard let kind = Outcome.Kind(rawValue: kindName) else {
            throw SQLitePostStoreError.malformedRow(
                sequence: sequence, reason: "outcome kind \"\(kindName)\" is not one this binary knows")
        }
        return EventSystem.StoredOutcome(
            kind: kind, description: try row.decode(String?.self, forColumn: "outcome_description") ?? "")
    }

    /// The stored post this row holds, its event decoded by `events`, with its time left at `now`.
    func post(events: StoredEvents, now: Int64) -> EventSystem.StoredPost {
        EventSystem.StoredPost(
            id: id, key: EventSystem.OrderingKey(key), entry: entry,
            payload: events.decode(name: typeName, version: schemaVersion, bytes: payload),
            idempotencyKey: idempotencyKey,
            timeLeft: deadlineNanoseconds.map {
                .nanoseconds($0.subtractingReportingOverflow(now).partialValue)
            },
            traceContext: traceContext,
            failedAttempts: failedAttempts.attempts(now: now, unit: .nanoseconds(1)),
            retryAfter: retryAtNanoseconds.flatMap {
                $0 > now ? .nanoseconds($0.subtractingReportingOverflow(now).partialValue) : nil
            })
    }
}

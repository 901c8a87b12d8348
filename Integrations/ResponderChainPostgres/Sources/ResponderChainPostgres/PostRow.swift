internal import Foundation
internal import NIOCore
internal import PostgresNIO
internal import ResponderChain
internal import ResponderChainStoredEvents

/// One post as `responderchain_posts` holds it (without its outcome), its event as bytes:
/// encoding and decoding happen outside the transactions.
struct PostRow: Sendable {
    var seq: Int64 = 0
    let id: EventID
    let key: String
    let entry: String
    let typeName: String
    let schemaVersion: Int
    let payload: [UInt8]
    let idempotencyKey: String?
    /// The deadline, in microseconds since 1970 (wall time, the store's measure).
    let deadline: Int64?
    /// The trace context as a JSON object, `nil` when empty.
    let traceContext: String?
    /// Its failed attempts (none for a new post).
    var failedAttempts = StoredFailedAttempts()
    /// When its next attempt may begin, in microseconds since 1970; `nil` for now.
    var retryAt: Int64?

    /// The row for `post`, whose deadline falls `post.timeLeft` after `now` (microseconds since
    /// 1970), its event encoded by `events`.
    init(
        _ post: EventSystem.StoredPost, events: StoredEvents, encoder: JSONEncoder, now: Int64
    ) throws(PostgresPostStoreError) {
        switch post.payload {
        case .event(let event):
            do {
                let (name, version, bytes) = try events.encode(event, with: encoder)
                (typeName, schemaVersion, payload) = (name, version, [UInt8](bytes))
            } catch {
                switch error {
                case .unregisteredEvent(let typeName): throw .unregisteredEvent(typeName: typeName)
                case .encodingFailed(let typeName, let reason):
                    throw .encodingFailed(typeName: typeName, reason: reason)
                default:
                    throw .encodingFailed(typeName: String(reflecting: type(of: event)), reason: "\(error)")
                }
            }
        case .undecodable(let undecodable):
            // Written back as it was read: a later binary may read it.
            (typeName, schemaVersion, payload) = (
                undecodable.typeName, undecodable.schemaVersion, undecodable.bytes
            )
        }
        id = post.id
        key = post.key.name
        entry = post.entry
        idempotencyKey = post.idempotencyKey
        deadline = post.timeLeft.map { now.addingReportingOverflow($0.microseconds).partialValue }
        traceContext =
            post.traceContext.isEmpty
            ? nil : (try? encoder.encode(post.traceContext)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The columns ``init(_:)`` reads, from `responderchain_posts`.
    static let columns = columns(of: nil)

    /// The columns ``init(_:)`` reads, from `responderchain_posts` named `table` in the query
    /// (or unnamed).
    static func columns(of table: String?) -> String {
        let prefix = table.map { "\($0)." } ?? ""
        return """
            \(prefix)seq, \(prefix)id_epoch, \(prefix)id_sequence, \(prefix)ordering_key, \(prefix)entry,
            \(prefix)type_name, \(prefix)schema_version, \(prefix)payload, \(prefix)idempotency_key,
            (extract(epoch FROM \(prefix)deadline) * 1000000)::bigint AS deadline_us,
            \(prefix)trace_context::text AS trace_context,
            \(prefix)failed_attempts::text AS failed_attempts, \(prefix)retry_at_us
            """
    }

    /// The row a select of ``columns`` read. A row from another version is checked column by
    /// column: what cannot be read is a ``PostgresPostStoreError/malformedRow(seq:column:reason:)``
    /// naming the column (an event that does not decode is no error here: it reads back as
    /// `.undecodable`).
    init(_ row: PostgresRow) throws(PostgresPostStoreError) {
        let cells = row.makeRandomAccess()
        var seq: Int64 = 0
        func read<T: PostgresDecodable>(_ column: String, as: T.Type) throws(PostgresPostStoreError) -> T {
            do {
                return try cells[column].decode(T.self)
            } catch {
                throw .malformedRow(
                    seq: seq, column: column,
                    reason: (error as? PostgresDecodingError).map { "\($0.code) (a \($0.postgresType))" }
                        ?? "\(error)")
            }
        }
        seq = try read("seq", as: Int64.self)
        self.seq = seq
        id = EventID(
            epoch: UInt64(bitPattern: try read("id_epoch", as: Int64.self)),
            sequence: UInt64(bitPattern: try read("id_sequence", as: Int64.self)))
        key = try read("ordering_key", as: String.self)
        entry = try read("entry", as: String.self)
        typeName = try read("type_name", as: String.self)
        schemaVersion = Int(try read("schema_version", as: Int32.self))
        payload = [UInt8](buffer: try read("payload", as: ByteBuffer.self))
        idempotencyKey = try read("idempotency_key", as: String?.self)
        deadline = try read("deadline_us", as: Int64?.self)
        traceContext = try read("trace_context", as: String?.self)
        let attempts = try read("failed_attempts", as: String?.self)
        do {
            failedAttempts = try StoredFailedAttempts(json: attempts)
        } catch {
            throw .malformedRow(seq: seq, column: "failed_attempts", reason: error.description)
        }
        retryAt = try read("retry_at_us", as: Int64?.self)
    }

    /// What a claim's row says besides the post: whether it was claimed before (a
    /// redelivery), and whether its key's expired lease was another consumer's.
    static func claimFacts(of row: PostgresRow, seq: Int64) throws(PostgresPostStoreError) -> (
        redelivered: Bool, takenOver: Bool
    ) {
        let cells = row.makeRandomAccess()
        let redelivered: Bool
        do {
            redelivered = try cells["redelivered"].decode(Bool.self)
        } catch {
            throw .malformedRow(seq: seq, column: "claimed_through", reason: "\(error)")
        }
        do {
            return (redelivered, try cells["taken_over"].decode(Bool.self))
        } catch {
            throw .malformedRow(seq: seq, column: "owner", reason: "\(error)")
        }
    }

    /// The `lease_token` column of a claimed row: its key's new fencing token.
    static func leaseToken(of row: PostgresRow, seq: Int64) throws(PostgresPostStoreError) -> Int64 {
        do {
            return try row.makeRandomAccess()["lease_token"].decode(Int64.self)
        } catch {
            throw .malformedRow(seq: seq, column: "lease_token", reason: "\(error)")
        }
    }

    /// The stored post this row holds, its event decoded by `events`, with its time left at
    /// `now` (microseconds since 1970), claimed under `lease` if given. A trace context that
    /// does not read is no reason to hold the post back: it goes on untraced.
    func post(events: StoredEvents, now: Int64, lease: EventSystem.Lease? = nil) -> EventSystem.StoredPost {
        let trace =
            traceContext.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
            ?? [:]
        return EventSystem.StoredPost(
            id: id, key: EventSystem.OrderingKey(key), entry: entry,
            payload: events.decode(name: typeName, version: schemaVersion, bytes: Data(payload)),
            idempotencyKey: idempotencyKey,
            timeLeft: deadline.map { .microseconds($0.subtractingReportingOverflow(now).partialValue) },
            traceContext: trace, lease: lease,
            failedAttempts: failedAttempts.attempts(now: now, unit: .microseconds(1)),
            retryAfter: retryAt.flatMap {
                $0 > now ? .microseconds($0.subtractingReportingOverflow(now).partialValue) : nil
            })
    }
}

extension EventID {
    /// The identifier's two parts as the two `bigint` columns keep them (bit patterns).
    var columns: (epoch: Int64, sequence: Int64) {
        (Int64(bitPattern: epoch), Int64(bitPattern: sequence))
    }

    /// `epoch.sequence`, as a finished-post notification names it.
    var notificationText: String { "\(epoch).\(sequence)" }

    /// The identifier a notification names as `epoch.sequence`, or `nil`.
    init?(notificationText text: Substring) {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let epoch = UInt64(parts[0]), let sequence = UInt64(parts[1]) else {
            return nil
        }
        self.init(epoch: epoch, sequence: sequence)
    }
}

extension Duration {
    /// The duration in whole microseconds (saturating far outside ±292,000 years).
    var microseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000_000).partialValue
    }
}

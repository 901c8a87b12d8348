internal import Foundation
public import ResponderChain

/// A stored post's failed attempts as a durable store keeps them in one column: a JSON array,
/// oldest first, each attempt with its number, its outcome and when it ended on the store's own
/// clock (`[{"number":1,"kind":"failed","description":"…","endedAt":1733468400000000}]`; the unit
/// of `endedAt` is the store's). Shared by the SQLite and PostgreSQL stores, so that both read
/// and check a row the same way.
///
/// A row may come from another binary: ``init(json:)`` checks what it reads and throws a
/// ``Malformed`` reason the store turns into its own typed error.
///
/// ```swift
/// var attempts = try StoredFailedAttempts(json: row.failedAttempts)
/// if attempts.append(failure, endedAt: now) { row.failedAttempts = attempts.json }
/// let read = attempts.attempts(endedBefore: now, unit: .nanoseconds(1))
/// ```
public struct StoredFailedAttempts: Hashable, Sendable {
    /// One failed attempt, as the column spells it.
    public struct Attempt: Codable, Hashable, Sendable {
        /// Its number, from 1.
        public let number: Int
        /// Its outcome's kind (a raw value of `Outcome.Kind`).
        public let kind: String
        /// Its outcome, in words.
        public let description: String
        /// When it ended, in the store's unit since its epoch.
        public let endedAt: Int64
    }

    /// Why a column's value could not be read.
    public struct Malformed: Error, Hashable, Sendable, CustomStringConvertible {
        /// The reason, in words.
        public let description: String
    }

    /// The attempts, oldest first.
    public private(set) var entries: [Attempt]

    /// No attempt.
    public init() {
        entries = []
    }

    /// The attempts a column holds: `nil` for none.
    ///
    /// - Throws: ``Malformed`` when it is not an array of attempts numbered from 1, each with an
    ///   outcome kind this binary knows.
    public init(json: String?) throws(Malformed) {
        guard let json else {
            entries = []
            return
        }
        do {
            entries = try JSONDecoder().decode([Attempt].self, from: Data(json.utf8))
        } catch {
            throw Malformed(description: "its failed attempts do not read: \(error)")
        }
        for (index, attempt) in entries.enumerated() {
            guard attempt.number == index + 1 else {
                throw Malformed(description: "failed attempt \(index + 1) is numbered \(attempt.number)")
            }
            guard Outcome.Kind(rawValue: attempt.kind) != nil else {
                throw Malformed(
                    description: "failed attempt \(attempt.number) has outcome kind \"\(attempt.kind)\"")
            }
        }
    }

    /// Adds `failure`, ended at `endedAt`, unless an attempt with its number is there already (a
    /// record repeated: the first stands); returns whether it added it.
    public mutating func append(_ failure: EventSystem.StoredPost.Failure, endedAt: Int64) -> Bool {
        guard !entries.contains(where: { $0.number == failure.number }) else { return false }
        entries.append(
            Attempt(
                number: failure.number, kind: failure.outcome.kind.rawValue,
                description: failure.outcome.description, endedAt: endedAt))
        return true
    }

    /// The column's value: `nil` for none.
    public var json: String? {
        guard !entries.isEmpty, let data = try? JSONEncoder().encode(entries) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The attempts as a store gives them back, `now` being its clock's reading and `unit` the
    /// duration of one of its ticks.
    public func attempts(now: Int64, unit: Duration) -> [EventSystem.StoredPost.FailedAttempt] {
        entries.map { attempt in
            EventSystem.StoredPost.FailedAttempt(
                number: attempt.number,
                outcome: EventSystem.StoredOutcome(
                    // Checked when read.
                    kind: Outcome.Kind(rawValue: attempt.kind) ?? .failed, description: attempt.description),
                endedAgo: unit * max(0, now.subtractingReportingOverflow(attempt.endedAt).partialValue))
        }
    }
}

internal import Foundation
internal import ResponderChain

/// The `failed_attempts` column of `responder_post`: a post's failed attempts (see
/// ``SQLitePostStore/recordFailure(_:)``), oldest first, as a JSON array, each attempt with
/// its number, its outcome and when it ended on the store's wall clock. `NULL` for none.
///
/// What a row holds may come from another binary: it is checked where it is read, and a
/// value this binary cannot read ends typed (``SQLitePostStoreError/malformedRow(sequence:reason:)``).
struct FailedAttemptsColumn: Sendable {
    /// One failed attempt, as the column spells it.
    struct Attempt: Codable, Sendable, Equatable {
        let number: Int
        let kind: String
        let description: String
        let endedAtNs: Int64
    }

    private(set) var attempts: [Attempt]

    /// No attempt.
    init() {
        attempts = []
    }

    /// The column's value `text` of row `sequence`.
    ///
    /// - Throws: ``SQLitePostStoreError/malformedRow(sequence:reason:)`` when it is not an array
    ///   of attempts numbered from 1, each with an outcome kind this binary knows.
    init(_ text: String?, sequence: Int64) throws(SQLitePostStoreError) {
        guard let text else {
            attempts = []
            return
        }
        do {
            attempts = try JSONDecoder().decode([Attempt].self, from: Data(text.utf8))
        } catch {
            throw .malformedRow(sequence: sequence, reason: "its failed attempts do not read: \(error)")
        }
        for (index, attempt) in attempts.enumerated() {
            guard attempt.number == index + 1 else {
                throw .malformedRow(
                    sequence: sequence, reason: "failed attempt \(index + 1) is numbered \(attempt.number)")
            }
            guard Outcome.Kind(rawValue: attempt.kind) != nil else {
                throw .malformedRow(
                    sequence: sequence,
                    reason: "failed attempt \(attempt.number) has outcome kind \"\(attempt.kind)\"")
            }
        }
    }

    /// Adds `failure`, ended at `now`, unless an attempt with its number is there already (a
    /// record repeated); returns whether it added it.
    mutating func append(_ failure: EventSystem.StoredPost.Failure, at now: Int64) -> Bool {
        guard !attempts.contains(where: { $0.number == failure.number }) else { return false }
        attempts.append(
            Attempt(
                number: failure.number, kind: failure.outcome.kind.rawValue,
                description: failure.outcome.description, endedAtNs: now))
        return true
    }

    /// The column's value: `nil` for none.
    var text: String? {
        guard !attempts.isEmpty, let data = try? JSONEncoder().encode(attempts) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The attempts as a store gives them back, `now` being the wall clock's reading.
    func storedAttempts(now: Int64) -> [EventSystem.StoredPost.FailedAttempt] {
        attempts.map { attempt in
            EventSystem.StoredPost.FailedAttempt(
                number: attempt.number,
                outcome: EventSystem.StoredOutcome(
                    // Checked when read.
                    kind: Outcome.Kind(rawValue: attempt.kind) ?? .failed, description: attempt.description),
                endedAgo: .nanoseconds(
                    max(0, now.subtractingReportingOverflow(attempt.endedAtNs).partialValue)))
        }
    }
}

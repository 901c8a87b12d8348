internal import Foundation
internal import ResponderChain

/// The `failed_attempts` column of `responderchain_posts`: a post's failed attempts (see
/// ``PostgresPostStore/recordFailure(_:)``), oldest first, as a JSON array, each attempt with
/// its number, its outcome and when it ended (microseconds since 1970, on the store's clock).
/// `NULL` for none.
///
/// A row may come from another binary: the value is checked where it is read, and one this
/// binary cannot read ends typed (``PostgresPostStoreError/malformedRow(seq:column:reason:)``).
struct FailedAttemptsColumn: Sendable {
    /// One failed attempt, as the column spells it.
    struct Attempt: Decodable, Sendable {
        let number: Int
        let kind: String
        let description: String
        let endedAtUs: Int64
    }

    let attempts: [Attempt]

    /// The column's value `text` (its `::text`) in the row `seq`.
    init(_ text: String?, seq: Int64) throws(PostgresPostStoreError) {
        guard let text else {
            attempts = []
            return
        }
        func malformed(_ reason: String) -> PostgresPostStoreError {
            .malformedRow(seq: seq, column: "failed_attempts", reason: reason)
        }
        do {
            attempts = try JSONDecoder().decode([Attempt].self, from: Data(text.utf8))
        } catch {
            throw malformed("it does not read: \(error)")
        }
        for (index, attempt) in attempts.enumerated() {
            guard attempt.number == index + 1 else {
                throw malformed("failed attempt \(index + 1) is numbered \(attempt.number)")
            }
            guard Outcome.Kind(rawValue: attempt.kind) != nil else {
                throw malformed("failed attempt \(attempt.number) has outcome kind \"\(attempt.kind)\"")
            }
        }
    }

    /// The attempts as a store gives them back, `now` being the store clock's reading.
    func storedAttempts(now: Int64) -> [EventSystem.StoredPost.FailedAttempt] {
        attempts.map { attempt in
            EventSystem.StoredPost.FailedAttempt(
                number: attempt.number,
                outcome: EventSystem.StoredOutcome(
                    // Checked when read.
                    kind: Outcome.Kind(rawValue: attempt.kind) ?? .failed, description: attempt.description),
                endedAgo: .microseconds(
                    max(0, now.subtractingReportingOverflow(attempt.endedAtUs).partialValue)))
        }
    }
}

/// What a stored post's retries carry beyond its policy: where its count of attempts starts,
/// the attempts that failed before (in an earlier run, or at another consumer), when the next
/// may begin, and where each new failure is recorded, so that the count survives a restart and
/// is shared by every consumer of a shared store.
///
/// A post in memory has none: its count starts at 1 and lives in its delivery.
@usableFromInline
struct PostRetrying: Sendable {
    /// The attempts that failed before this delivery, oldest first: the first attempt made here
    /// is number `earlier.count + 1`.
    var earlier: [DeadLetter.Attempt] = []
    /// When the first attempt made here may begin: the rest of the wait the last failure
    /// recorded.
    var notBefore: EventSystem.Instant?
    /// Records attempt `number`'s failure with `outcome`, the next attempt waiting `retryAfter`;
    /// returns once the store holds it, or could not.
    var record: (@Sendable (_ number: Int, _ outcome: Outcome, _ retryAfter: Duration) async -> Void)?

    /// Whether the post's lease was lost during the last attempt (a store's fence refused its
    /// write): it is neither recorded nor tried again here.
    var leaseLost: (@Sendable () -> Bool)?

    /// The number of the first attempt made in this delivery.
    var firstAttempt: Int { earlier.count + 1 }
}

extension PostOffice {
    /// The retries of `post`'s delivery, if it is stored: its earlier failures and where new
    /// ones are written; `nil` for a post in memory (read only when an attempt failed).
    func retrying(of post: PendingPost) -> PostRetrying? {
        guard let entry = post.ticket.ledgerEntry, entry.isStored, let store = writer?.store else {
            return nil
        }
        var retrying = post.storedRetrying ?? PostRetrying()
        let id = post.ticket.eventID
        retrying.record = { number, outcome, retryAfter in
            // A failure not recorded costs only the count's durability: the retry is made anyway.
            try? await store.recordFailure(
                EventSystem.StoredPost.Failure(
                    id: id, number: number, outcome: EventSystem.StoredOutcome(outcome),
                    retryAfter: retryAfter,
                    lease: entry.lease))
        }
        retrying.leaseLost = { entry.leaseLost }
        return retrying
    }
}

extension EventSystem {
    /// Where a system keeps its posted events so that they outlive the process: a post is accepted
    /// (its ticket returned) only once its store holds it, and a post that was accepted and had not
    /// finished when the process died is delivered again at the next start.
    ///
    /// A system without a store keeps its posts in memory (``EventSystem/Storage/memory``), as it
    /// always has: nothing is written and nothing survives the process. With one
    /// (``EventSystem/Storage/store(_:)``), the post office calls the store and nothing else does:
    ///
    /// - ``store(_:)`` once per batch of posts that arrived together (group commit: one transaction,
    ///   one disk flush, for every post of the batch), before any of them is acknowledged or
    ///   delivered;
    /// - ``finish(_:)`` once per batch of ended posts, after their outcomes are known; a post whose
    ///   finish was lost to a crash is delivered again (delivery is at least once);
    /// - ``recordFailure(_:)`` when an attempt failed and a retry policy tries the post again;
    /// - ``unfinished()`` when the system recovers (``EventSystem/recoverStoredPosts()``);
    /// - ``deadLetters(matching:)``, ``redrive(_:)`` and ``purgeDeadLetters(_:)`` for the dead
    ///   letters it keeps (``EventSystem/storedDeadLetters(matching:)``);
    /// - ``outcome(of:)`` when asked for the outcome of a post by its identifier.
    ///
    /// The store decides how an event is written (a store on a file encodes it, under a name and a
    /// schema version it registers) and reads back what it can: a stored post it cannot decode comes
    /// back as ``EventSystem/StoredPost/Payload/undecodable(_:)``, never as a crash or a silent skip.
    ///
    /// ```swift
    /// let store = try SQLitePostStore(path: "orders.sqlite", events: events)   // ResponderChainSQLite
    /// let system = EventSystem(storage: .store(store))
    /// try system.register(ordersDesk, as: "orders")
    /// try await system.recoverStoredPosts()      // what the last run left unfinished
    /// ```
    ///
    /// `InMemoryPostStore` (``EventSystem/InMemoryPostStore``) keeps the contract in memory: it
    /// outlives a system within one process, which is what recovery tests need.
    public protocol PostStore: Sendable {
        /// Writes `posts` in one transaction, in the order given, and returns once they are durable
        /// (as durable as the store promises), with one acceptance per post, in the same order.
        ///
        /// A post whose ``EventSystem/StoredPost/idempotencyKey`` is already held (by a post stored
        /// earlier and still within the store's retention) is not written again: its acceptance is
        /// ``EventSystem/StoredPost/Acceptance/duplicate(of:outcome:)``. Throwing means none of the
        /// batch was written: every post of it ends rejected
        /// (``Outcome/Rejection/Reason/notStored(_:)``).
        func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance]

        /// Records that these posts ended, with their outcomes, in one transaction: they are no
        /// longer unfinished, and each outcome stays readable by ``outcome(of:)`` for the store's
        /// retention period.
        func finish(_ posts: [EventSystem.StoredPost.Finish]) async throws

        /// Records that an attempt at delivering a stored post failed and that it will be tried
        /// again after `failure.retryAfter` (see ``EventSystem/RetryPolicy``): its failures and the
        /// time of its next attempt are read back with the post (``StoredPost/failedAttempts``,
        /// ``StoredPost/retryAfter``), by this process after a restart or by any consumer of a
        /// shared store, so that a count of failures survives them all.
        ///
        /// A shared store records it only while `failure.lease` is the key's current lease, as for
        /// a finish. A post already finished, or unknown, is left as it is, and so is an attempt
        /// whose number is recorded already (the first record stands). It may be called
        /// while a call of the writer's is under way. Throwing means nothing was recorded: the
        /// attempt is made anyway, and a restart before the next record counts from the last.
        func recordFailure(_ failure: EventSystem.StoredPost.Failure) async throws

        /// The dead letters `query` matches (posts finished with ``StoredPost/Finish/deadLettered``
        /// and not redriven or purged since), in post order, at most `query.limit`. A store keeps
        /// them past its retention.
        func deadLetters(matching query: EventSystem.DeadLetterQuery) async throws -> [EventSystem
            .StoredDeadLetter]

        /// Makes the dead letters `ids` unfinished again, as they were stored, with the same
        /// identifiers and no failed attempts, in one transaction, and returns them (without a
        /// lease) in post order: a post that is not a dead letter (any more) is left as it is.
        /// Their inbox entries are untouched, so that an effect made before is not made again.
        func redrive(_ ids: [EventID]) async throws -> [EventSystem.StoredPost]

        /// Forgets the dead letters `ids` for good; returns how many there were.
        func purgeDeadLetters(_ ids: [EventID]) async throws -> Int

        /// Every stored post that has not finished, oldest first (so each ordering key's posts come
        /// in post order).
        func unfinished() async throws -> [EventSystem.StoredPost]

        /// The outcome recorded for the post `id`, if it has finished and is still retained.
        func outcome(of id: EventID) async throws -> EventSystem.StoredOutcome?
    }
}

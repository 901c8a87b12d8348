extension EventSystem {
    /// The dead letters this system's store keeps that `query` matches, in post order: the posts
    /// that ended other than handled (and not by their own ticket's `cancel()`), each with its
    /// event, key, last outcome and earlier failed attempts, kept until redriven or purged.
    ///
    /// A system that keeps its posts in memory (``Storage/memory``) keeps no dead letters (they go
    /// to its sink and streams only): it returns none.
    ///
    /// ```swift
    /// let failed = try await system.storedDeadLetters(matching: .init(outcomes: [.failed], limit: 50))
    /// ```
    public func storedDeadLetters(matching query: DeadLetterQuery = .all) async throws -> [StoredDeadLetter] {
        guard let store = storage.store else { return [] }
        return try await store.deadLetters(matching: query)
    }

    /// Sends the stored dead letters `query` matches again, at most `rate` a second on the
    /// system's clock, while other posts flow, and returns how many it sent.
    ///
    /// Each is made unfinished again in the store with its own ``EventID`` and no failed attempts,
    /// then delivered like a post recovered after a restart (on a shared store, by whichever
    /// consumer claims its key): a store's inbox, keyed by the identifier, keeps an effect made
    /// before from being made again, on a second redrive too. Letters are taken in post order,
    /// in batches of a tenth of `rate`; one that fails again during the redrive goes back to the
    /// dead letters and is not sent twice by this call. A redrive cut short (the task cancelled,
    /// the process killed) leaves each letter either sent or still a dead letter: run it again.
    ///
    /// ```swift
    /// let sent = try await system.redriveDeadLetters(matching: .init(keys: ["order-17"]), perSecond: 500)
    /// ```
    ///
    /// - Parameters:
    ///   - query: Which dead letters (``DeadLetterQuery/after`` is where to begin; its ``DeadLetterQuery/limit`` is ignored).
    ///   - rate: How many a second, at most; at least 1.
    /// - Throws: The store's error, or `CancellationError` when the task is cancelled between
    ///   batches.
    @discardableResult
    public func redriveDeadLetters(matching query: DeadLetterQuery = .all, perSecond rate: Int = 500)
        async throws
        -> Int
    {
        guard let store = storage.store else { return 0 }
        let rate = max(1, rate)
        var query = query
        query.limit = max(1, rate / 10)
        let start = timers.now
        var sent = 0
        // For a test clock: the pause's timer returns once the next batch is sent and the next
        // pause scheduled, or the redrive has ended.
        var paused: SendEnding?
        defer { paused?.end() }
        while true {
            let letters = try await store.deadLetters(matching: query)
            guard let last = letters.last else { break }
            query.after = last.post.id
            let reopened = try await store.redrive(letters.map(\.post.id))
            sent += reopened.count
            if case .store = storage {
                await deliverStored(reopened)
            } else {
                postOffice.consumer?.wake()
            }
            // The next batch starts once the letters sent so far fit the rate.
            let next = start + .nanoseconds(Int64((Double(sent) / Double(rate) * 1e9).rounded()))
            let woke: Bool
            (woke, paused) = await timers.sleepHandingOver(
                until: next, for: .other("the redrive's pause"), after: paused)
            if !woke { throw CancellationError() }
        }
        return sent
    }

    /// Forgets the stored dead letters `query` matches, for good, and returns how many; none in
    /// a system that keeps its posts in memory.
    @discardableResult
    public func purgeDeadLetters(matching query: DeadLetterQuery) async throws -> Int {
        guard let store = storage.store else { return 0 }
        var purged = 0
        while true {
            // The letters purged are gone: each read starts from the first that is left.
            let letters = try await store.deadLetters(matching: query)
            let batch = try await store.purgeDeadLetters(letters.map(\.post.id))
            purged += batch
            if letters.isEmpty || batch == 0 { return purged }
        }
    }
}

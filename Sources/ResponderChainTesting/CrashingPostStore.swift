public import ResponderChain

/// A post store that forwards to another and passes the store's crash points around its
/// calls, so that a crash suite kills a child process inside the store's writes with no hook
/// in the store: ``CrashPoint/beforeCommit`` and ``CrashPoint/afterCommitBeforeReturn`` around
/// `store(_:)`, ``CrashPoint/afterHandlerBeforeDone`` before `finish(_:)`. The posts
/// `unfinished()` hands back are noted as the run's redeliveries
/// (``CrashTrigger/noteRecovered(_:)``).
///
/// It is a shared store when the wrapped one is, so it runs a consumer of a shared store too:
///
/// ```swift
/// let trigger = CrashTrigger(point: .afterHandlerBeforeDone, occurrence: 12)
/// let system = EventSystem(storage: .shared(CrashingPostStore(wrapping: postgres, trigger: trigger)))
/// ```
public struct CrashingPostStore<Wrapped: EventSystem.PostStore>: EventSystem.PostStore {
    /// The store the calls go to.
    public let wrapped: Wrapped
    /// Counts the crash points and crashes at the run's.
    public let trigger: CrashTrigger

    /// A store that forwards to `wrapped`, passing `trigger` its crash points.
    public init(wrapping wrapped: Wrapped, trigger: CrashTrigger) {
        self.wrapped = wrapped
        self.trigger = trigger
    }

    /// Passes ``CrashPoint/beforeCommit``, stores, passes ``CrashPoint/afterCommitBeforeReturn``.
    public func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance] {
        trigger.pass(.beforeCommit, count: posts.count)
        let acceptances = try await wrapped.store(posts)
        trigger.pass(.afterCommitBeforeReturn, count: posts.count)
        return acceptances
    }

    /// Passes ``CrashPoint/afterHandlerBeforeDone``, then finishes.
    public func finish(_ posts: [EventSystem.StoredPost.Finish]) async throws {
        trigger.pass(.afterHandlerBeforeDone, count: posts.count)
        try await wrapped.finish(posts)
    }

    /// The wrapped store's record of a failed attempt.
    public func recordFailure(_ failure: EventSystem.StoredPost.Failure) async throws {
        try await wrapped.recordFailure(failure)
    }

    /// The wrapped store's dead letters.
    public func deadLetters(matching query: EventSystem.DeadLetterQuery) async throws -> [EventSystem
        .StoredDeadLetter]
    {
        try await wrapped.deadLetters(matching: query)
    }

    /// Passes ``CrashPoint/beforeCommit`` and redrives with the wrapped store (a crash there
    /// cuts a redrive short), then passes ``CrashPoint/afterCommitBeforeReturn``.
    public func redrive(_ ids: [EventID]) async throws -> [EventSystem.StoredPost] {
        trigger.pass(.beforeCommit, count: ids.count)
        let posts = try await wrapped.redrive(ids)
        trigger.pass(.afterCommitBeforeReturn, count: ids.count)
        return posts
    }

    /// The wrapped store's purge.
    public func purgeDeadLetters(_ ids: [EventID]) async throws -> Int {
        try await wrapped.purgeDeadLetters(ids)
    }

    /// The wrapped store's unfinished posts, noted as recovered.
    public func unfinished() async throws -> [EventSystem.StoredPost] {
        let posts = try await wrapped.unfinished()
        trigger.noteRecovered(posts.map(\.id))
        return posts
    }

    /// The wrapped store's outcome of `id`.
    public func outcome(of id: EventID) async throws -> EventSystem.StoredOutcome? {
        try await wrapped.outcome(of: id)
    }
}

extension CrashingPostStore: EventSystem.SharedPostStore where Wrapped: EventSystem.SharedPostStore {
    /// The wrapped store's claim.
    public func claim(limit: Int) async throws -> [EventSystem.StoredPost] {
        try await wrapped.claim(limit: limit)
    }

    /// The wrapped store's release.
    public func release(_ leases: [EventSystem.Lease]) async throws {
        try await wrapped.release(leases)
    }

    /// The wrapped store's signals.
    public func signals() -> AsyncStream<EventSystem.StoreSignal> {
        wrapped.signals()
    }
}

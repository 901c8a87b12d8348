import ResponderChain

/// A ``EventSystem/PostStore`` that forwards to another and passes the store's crash points around the
/// calls: the crash points need no hook in the library.
struct CrashingStore: EventSystem.PostStore {
    let wrapped: any EventSystem.PostStore
    let trigger: CrashTrigger

    init(wrapping wrapped: any EventSystem.PostStore, trigger: CrashTrigger) {
        self.wrapped = wrapped
        self.trigger = trigger
    }

    func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance] {
        trigger.pass(.beforeCommit, count: posts.count)
        let acceptances = try await wrapped.store(posts)
        trigger.pass(.afterCommitBeforeReturn, count: posts.count)
        return acceptances
    }

    func finish(_ posts: [EventSystem.StoredPost.Finish]) async throws {
        trigger.pass(.afterHandlerBeforeDone, count: posts.count)
        try await wrapped.finish(posts)
    }

    func unfinished() async throws -> [EventSystem.StoredPost] {
        let posts = try await wrapped.unfinished()
        trigger.noteRecovered(posts.map(\.id))
        return posts
    }

    func outcome(of id: EventID) async throws -> EventSystem.StoredOutcome? {
        try await wrapped.outcome(of: id)
    }
}

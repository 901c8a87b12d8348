#if RemoteAndStores
    import ResponderChain
    import Synchronization

    /// A ``EventSystem/PostStore`` that forwards to another and counts what goes through it: the batches the
    /// system's writer hands it (rows per commit) and the posts it records as finished, so that a
    /// run can wait until the store holds no unfinished post without polling the file.
    final class CountingPostStore: EventSystem.PostStore {
        private struct State {
            var batches = 0
            var stored = 0
            var finished = 0
            var awaited = Int.max
            var waiter: CheckedContinuation<Void, Never>?
        }

        let inner: any EventSystem.PostStore
        private let state = Mutex(State())

        init(_ inner: any EventSystem.PostStore) { self.inner = inner }

        /// Calls to ``store(_:)`` so far.
        var batches: Int { state.withLock { $0.batches } }
        /// Posts stored so far.
        var stored: Int { state.withLock { $0.stored } }

        func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance] {
            let acceptances = try await inner.store(posts)
            state.withLock { state in
                state.batches += 1
                state.stored += posts.count
            }
            return acceptances
        }

        func finish(_ posts: [EventSystem.StoredPost.Finish]) async throws {
            try await inner.finish(posts)
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                state.finished += posts.count
                guard state.finished >= state.awaited else { return nil }
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }

        func recordFailure(_ failure: EventSystem.StoredPost.Failure) async throws {
            try await inner.recordFailure(failure)
        }

        func unfinished() async throws -> [EventSystem.StoredPost] { try await inner.unfinished() }
        func deadLetters(matching query: EventSystem.DeadLetterQuery) async throws -> [EventSystem
            .StoredDeadLetter]
        {
            try await inner.deadLetters(matching: query)
        }
        func redrive(_ ids: [EventID]) async throws -> [EventSystem.StoredPost] {
            try await inner.redrive(ids)
        }
        func purgeDeadLetters(_ ids: [EventID]) async throws -> Int { try await inner.purgeDeadLetters(ids) }

        func outcome(of id: EventID) async throws -> EventSystem.StoredOutcome? {
            try await inner.outcome(of: id)
        }

        /// Returns once `count` posts have been recorded finished (one waiter at a time).
        func waitUntilFinished(_ count: Int) async {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state in
                    guard state.finished < count else { return true }
                    state.awaited = count
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }
#endif

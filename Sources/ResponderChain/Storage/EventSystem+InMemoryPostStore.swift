import Synchronization

extension EventSystem {
    /// A ``EventSystem/PostStore`` in memory: it keeps the store contract (idempotency keys, outcomes by
    /// identifier, unfinished posts in post order) for as long as the object lives, and outlives
    /// the systems that use it.
    ///
    /// It is the reference a durable store is checked against, and what a test uses to stop one
    /// system and recover its posts in another without a file:
    ///
    /// ```swift
    /// let store = EventSystem.InMemoryPostStore()
    /// let first = EventSystem(storage: .store(store))
    /// …                                             // posts; the first system stops
    /// let second = EventSystem(storage: .store(store))
    /// second.register(desk, as: "desk")
    /// try await second.recoverStoredPosts()         // what the first left unfinished
    /// ```
    ///
    /// It survives no process: a system that needs nothing to survive is better served by
    /// ``Storage/memory``, which writes nothing.
    public final class InMemoryPostStore: EventSystem.PostStore {
        private struct Row {
            let post: StoredPost
            /// Where the post's deadline falls on the store's clock (time since the store began).
            let deadline: Duration?
            var outcome: StoredOutcome?
            var finishedAt: Duration?
        }

        private struct State {
            var rows: [EventID: Row] = [:]
            /// Identifiers in the order their posts were stored.
            var order: [EventID] = []
            var byIdempotencyKey: [String: EventID] = [:]

            /// When ``prune(at:retention:)`` last looked.
            var prunedAt: Duration = .zero

            /// Forgets the posts that finished more than `retention` before `now`; looks at most
            /// once per tenth of `retention`.
            mutating func prune(at now: Duration, retention: Duration) {
                guard now - prunedAt >= retention / 10 else { return }
                prunedAt = now
                let horizon = now - retention
                order.removeAll { id in
                    guard let row = rows[id], let finishedAt = row.finishedAt, finishedAt < horizon else {
                        return false
                    }
                    rows[id] = nil
                    if let key = row.post.idempotencyKey { byIdempotencyKey[key] = nil }
                    return true
                }
            }
        }

        private let state = Mutex(State())
        /// The time since the store was made, on its clock.
        private let elapsed: @Sendable () -> Duration
        /// How long a finished post's outcome and idempotency key are kept.
        public let retention: Duration

        /// An empty store that keeps finished posts' outcomes and idempotency keys for
        /// `retention`, and measures time (a stored post's time left, a finished post's age) on
        /// `clock`: give it the systems' manual clock in a test.
        public init(
            retention: Duration = .seconds(24 * 60 * 60), clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.retention = retention
            self.elapsed = Self.elapsedTime(on: clock)
        }

        private static func elapsedTime(on clock: some Clock<Duration>) -> @Sendable () -> Duration {
            let origin = clock.now
            return { origin.duration(to: clock.now) }
        }

        /// Stores the posts, or recognises them by idempotency key.
        public func store(_ posts: [StoredPost]) async throws -> [StoredPost.Acceptance] {
            let now = elapsed()
            return state.withLock { state in
                state.prune(at: now, retention: retention)
                return posts.map { post in
                    if let key = post.idempotencyKey, let earlier = state.byIdempotencyKey[key] {
                        return .duplicate(of: earlier, outcome: state.rows[earlier]?.outcome)
                    }
                    state.rows[post.id] = Row(post: post, deadline: post.timeLeft.map { now + $0 })
                    state.order.append(post.id)
                    if let key = post.idempotencyKey { state.byIdempotencyKey[key] = post.id }
                    return .stored
                }
            }
        }

        /// Records the outcomes.
        public func finish(_ posts: [StoredPost.Finish]) async throws {
            let now = elapsed()
            state.withLock { state in
                for finish in posts where state.rows[finish.id]?.outcome == nil {
                    state.rows[finish.id]?.outcome = finish.outcome
                    state.rows[finish.id]?.finishedAt = now
                }
            }
        }

        /// The posts not finished, in the order they were stored, with their time left now.
        public func unfinished() async throws -> [StoredPost] {
            let now = elapsed()
            return state.withLock { state in
                state.order.compactMap { id in
                    guard let row = state.rows[id], row.outcome == nil else { return nil }
                    let post = row.post
                    return StoredPost(
                        id: post.id, key: post.key, entry: post.entry, payload: post.payload,
                        idempotencyKey: post.idempotencyKey, timeLeft: row.deadline.map { $0 - now },
                        traceContext: post.traceContext)
                }
            }
        }

        /// The outcome of `id`, if it finished.
        public func outcome(of id: EventID) async throws -> StoredOutcome? {
            state.withLock { $0.rows[id]?.outcome }
        }

        /// How many posts the store holds, finished or not (finished ones until their retention
        /// ends).
        public var count: Int { state.withLock { $0.rows.count } }
    }
}

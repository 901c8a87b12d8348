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
    public final class InMemoryPostStore: EventSystem.SharedPostStore {
        private struct Row {
            let post: StoredPost
            /// Where the post's deadline falls on the store's clock (time since the store began).
            let deadline: Duration?
            var outcome: StoredOutcome?
            var finishedAt: Duration?
            /// Its failed attempts, each with when it was recorded, oldest first.
            var failures: [(number: Int, outcome: StoredOutcome, at: Duration)] = []
            /// When its next attempt may begin, if a failure said so.
            var retryAt: Duration?
            /// Whether it finished as a dead letter (kept until redriven or purged).
            var deadLettered = false
        }

        private struct State {
            var rows: [EventID: Row] = [:]
            /// Identifiers in the order their posts were stored.
            var order: [EventID] = []
            var byIdempotencyKey: [String: EventID] = [:]
            /// Each key's current lease token, and whether a consumer holds it.
            var leases: [String: (token: Int64, held: Bool)] = [:]
            /// Posts refused a finish (or a failure's record) because their lease was no longer
            /// current.
            var refusedFinishes = 0
            /// The dead letters kept, oldest first.
            var deadLetters: [EventID] = []
            /// How many dead letters were forgotten to stay within the limit.
            var droppedDeadLetters = 0
            /// The streams of ``signals()``.
            var listeners: [Int: AsyncStream<StoreSignal>.Continuation] = [:]
            var nextListener = 0

            /// Forgets the post `id` entirely.
            mutating func forget(_ id: EventID) {
                if let key = rows[id]?.post.idempotencyKey { byIdempotencyKey[key] = nil }
                rows[id] = nil
                order.removeAll { $0 == id }
            }

            /// When ``prune(at:retention:)`` last looked.
            var prunedAt: Duration = .zero

            /// Forgets the posts that finished more than `retention` before `now`; looks at most
            /// once per tenth of `retention`.
            mutating func prune(at now: Duration, retention: Duration) {
                guard now - prunedAt >= retention / 10 else { return }
                prunedAt = now
                let horizon = now - retention
                order.removeAll { id in
                    guard let row = rows[id], let finishedAt = row.finishedAt, finishedAt < horizon,
                        !row.deadLettered
                    else {
                        return false
                    }
                    rows[id] = nil
                    if let key = row.post.idempotencyKey { byIdempotencyKey[key] = nil }
                    return true
                }
            }
        }

        private let state = Locked(State())
        /// The time since the store was made, on its clock.
        private let elapsed: @Sendable () -> Duration
        /// How long a finished post's outcome and idempotency key are kept.
        public let retention: Duration
        /// The most dead letters kept: past it, the oldest is forgotten and counted
        /// (``droppedDeadLetters``).
        public let deadLetterLimit: Int

        /// An empty store that keeps finished posts' outcomes and idempotency keys for
        /// `retention`, up to `deadLetterLimit` dead letters (at least 1) until they are redriven
        /// or purged, and measures time (a stored post's time left, a finished post's age) on
        /// `clock`: give it the systems' manual clock in a test.
        public init(
            retention: Duration = .seconds(24 * 60 * 60), deadLetterLimit: Int = 10_000,
            clock: any Clock<Duration> = ContinuousClock()
        ) {
            self.retention = retention
            self.deadLetterLimit = max(1, deadLetterLimit)
            self.elapsed = Self.elapsedTime(on: clock)
        }

        /// How many dead letters the store forgot, oldest first, to keep at most
        /// ``deadLetterLimit``.
        public var droppedDeadLetters: Int { state.withLock { $0.droppedDeadLetters } }

        private static func elapsedTime(on clock: some Clock<Duration>) -> @Sendable () -> Duration {
            let origin = clock.now
            return { origin.duration(to: clock.now) }
        }

        /// Stores the posts, or recognises them by idempotency key.
        public func store(_ posts: [StoredPost]) async throws -> [StoredPost.Acceptance] {
            let now = elapsed()
            let (acceptances, listeners) = state.withLock { state in
                state.prune(at: now, retention: retention)
                let acceptances = posts.map { post -> StoredPost.Acceptance in
                    if let key = post.idempotencyKey, let earlier = state.byIdempotencyKey[key] {
                        return .duplicate(of: earlier, outcome: state.rows[earlier]?.outcome)
                    }
                    state.rows[post.id] = Row(post: post, deadline: post.timeLeft.map { now + $0 })
                    state.order.append(post.id)
                    if let key = post.idempotencyKey { state.byIdempotencyKey[key] = post.id }
                    return .stored
                }
                return (acceptances, Array(state.listeners.values))
            }
            if acceptances.contains(.stored) { for listener in listeners { listener.yield(.posted) } }
            return acceptances
        }

        /// Records the outcomes; a finish under a lease that is no longer its key's current one
        /// is refused (``refusedFinishes``).
        public func finish(_ posts: [StoredPost.Finish]) async throws {
            let now = elapsed()
            let (finished, listeners) = state.withLock { state in
                var finished: [EventID] = []
                for finish in posts {
                    if let lease = finish.lease, state.leases[lease.key.name]?.token != lease.token {
                        state.refusedFinishes += 1
                        continue
                    }
                    guard state.rows[finish.id]?.outcome == nil else { continue }
                    state.rows[finish.id]?.outcome = finish.outcome
                    state.rows[finish.id]?.finishedAt = now
                    state.rows[finish.id]?.deadLettered = finish.deadLettered
                    if finish.deadLettered {
                        state.deadLetters.append(finish.id)
                        if state.deadLetters.count > deadLetterLimit {
                            let oldest = state.deadLetters.removeFirst()
                            state.forget(oldest)
                            state.droppedDeadLetters += 1
                        }
                    }
                    finished.append(finish.id)
                }
                return (finished, Array(state.listeners.values))
            }
            if !finished.isEmpty { for listener in listeners { listener.yield(.finished(finished)) } }
        }

        /// Records a failed attempt of an unfinished post, and when its next may begin; refused
        /// (``refusedFinishes`` counts it too) under a lease that is no longer current.
        public func recordFailure(_ failure: StoredPost.Failure) async throws {
            let now = elapsed()
            state.withLock { state in
                if let lease = failure.lease, state.leases[lease.key.name]?.token != lease.token {
                    state.refusedFinishes += 1
                    return
                }
                guard let row = state.rows[failure.id], row.outcome == nil,
                    !row.failures.contains(where: { $0.number == failure.number })
                else { return }
                state.rows[failure.id]?.failures.append((failure.number, failure.outcome, now))
                state.rows[failure.id]?.retryAt = now + failure.retryAfter
            }
        }

        /// Leases keys no consumer holds and returns their unfinished posts, oldest first.
        public func claim(limit: Int) async throws -> [StoredPost] {
            let now = elapsed()
            return state.withLock { state in
                var claimed: [StoredPost] = []
                var taken: [String: Lease] = [:]
                var passed: Set<String> = []
                for id in state.order where claimed.count < limit {
                    guard let row = state.rows[id], row.outcome == nil else { continue }
                    let key = row.post.key.name
                    if passed.contains(key) { continue }
                    let lease: Lease
                    if let held = taken[key] {
                        lease = held
                    } else {
                        if let current = state.leases[key], current.held {
                            passed.insert(key)
                            continue
                        }
                        let token = (state.leases[key]?.token ?? 0) + 1
                        state.leases[key] = (token, true)
                        lease = Lease(key: row.post.key, token: token)
                        taken[key] = lease
                    }
                    claimed.append(Self.readBack(row, now: now, lease: lease))
                }
                return claimed
            }
        }

        /// Frees the keys of `leases` that are still current.
        public func release(_ leases: [Lease]) async throws {
            state.withLock { state in
                for lease in leases where state.leases[lease.key.name]?.token == lease.token {
                    state.leases[lease.key.name]?.held = false
                }
            }
        }

        /// Signals posts stored and finished through this object.
        public func signals() -> AsyncStream<StoreSignal> {
            let (stream, continuation) = AsyncStream.makeStream(of: StoreSignal.self)
            let id = state.withLock { state in
                defer { state.nextListener += 1 }
                state.listeners[state.nextListener] = continuation
                return state.nextListener
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.state.withLock { $0.listeners.removeValue(forKey: id) }
            }
            return stream
        }

        /// Ends every lease held, as if their consumers had died and their leases run out: the
        /// next claim of each key gets a larger token, and finishes under the old ones are
        /// refused. (What a shared store on a server does after a lease's time without a
        /// heartbeat.)
        public func expireLeases() {
            state.withLock { state in
                for key in state.leases.keys { state.leases[key]?.held = false }
            }
        }

        /// How many finishes (and recorded failures) were refused because their lease was no
        /// longer current.
        public var refusedFinishes: Int { state.withLock { $0.refusedFinishes } }

        /// The posts not finished, in the order they were stored, with their time left now.
        public func unfinished() async throws -> [StoredPost] {
            let now = elapsed()
            return state.withLock { state in
                state.order.compactMap { id in
                    guard let row = state.rows[id], row.outcome == nil else { return nil }
                    return Self.readBack(row, now: now, lease: nil)
                }
            }
        }

        private static func readBack(_ row: Row, now: Duration, lease: Lease?) -> StoredPost {
            let post = row.post
            return StoredPost(
                id: post.id, key: post.key, entry: post.entry, payload: post.payload,
                idempotencyKey: post.idempotencyKey, timeLeft: row.deadline.map { $0 - now },
                traceContext: post.traceContext, lease: lease,
                failedAttempts: row.failures.map {
                    StoredPost.FailedAttempt(number: $0.number, outcome: $0.outcome, endedAgo: now - $0.at)
                },
                retryAfter: row.retryAt.flatMap { $0 > now ? $0 - now : nil })
        }

        /// The dead letters `query` matches, in the order their posts were stored; an event's
        /// name is its ``Event/traceName`` (an unreadable one's, the name it was stored under).
        public func deadLetters(matching query: DeadLetterQuery) async throws -> [StoredDeadLetter] {
            let now = elapsed()
            return state.withLock { state in
                var letters: [StoredDeadLetter] = []
                var passed = query.after == nil
                for id in state.order where letters.count < query.limit {
                    if !passed {
                        passed = id == query.after
                        continue
                    }
                    guard let row = state.rows[id], row.deadLettered, let outcome = row.outcome,
                        let finishedAt = row.finishedAt
                    else { continue }
                    let name: String
                    switch row.post.payload {
                    case .event(let event): name = event.traceName
                    case .undecodable(let undecodable): name = undecodable.typeName
                    }
                    let age = now - finishedAt
                    guard
                        query.matches(
                            id: id, eventName: name, key: row.post.key, outcome: outcome.kind, age: age)
                    else {
                        continue
                    }
                    letters.append(
                        StoredDeadLetter(
                            post: Self.readBack(row, now: now, lease: nil), outcome: outcome, age: age))
                }
                return letters
            }
        }

        /// Makes the dead letters `ids` unfinished again, with no failed attempts; signals them
        /// as posted.
        public func redrive(_ ids: [EventID]) async throws -> [StoredPost] {
            let now = elapsed()
            let wanted = Set(ids)
            let (reopened, listeners) = state.withLock { state in
                var reopened: [StoredPost] = []
                for id in state.order where wanted.contains(id) {
                    guard var row = state.rows[id], row.deadLettered else { continue }
                    row.outcome = nil
                    row.finishedAt = nil
                    row.deadLettered = false
                    state.deadLetters.removeAll { $0 == id }
                    row.failures = []
                    row.retryAt = nil
                    state.rows[id] = row
                    reopened.append(Self.readBack(row, now: now, lease: nil))
                }
                return (reopened, Array(state.listeners.values))
            }
            if !reopened.isEmpty { for listener in listeners { listener.yield(.posted) } }
            return reopened
        }

        /// Forgets the dead letters `ids`.
        public func purgeDeadLetters(_ ids: [EventID]) async throws -> Int {
            state.withLock { state in
                var purged: Set<EventID> = []
                for id in ids where state.rows[id]?.deadLettered == true {
                    if let key = state.rows[id]?.post.idempotencyKey { state.byIdempotencyKey[key] = nil }
                    state.rows[id] = nil
                    purged.insert(id)
                }
                if !purged.isEmpty {
                    state.order.removeAll { purged.contains($0) }
                    state.deadLetters.removeAll { purged.contains($0) }
                }
                return purged.count
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

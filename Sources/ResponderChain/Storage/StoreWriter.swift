import Synchronization

/// The one writer between a post office and its ``EventSystem/PostStore``: it makes group commit.
///
/// Posts handed to it while a write is under way wait for the next one, and go together: one
/// ``EventSystem/PostStore/store(_:)`` (one transaction, one flush) for every post that arrived meanwhile,
/// up to ``maxBatch``. A poster is answered once its batch is durable. The ends of posts
/// (``finish(_:)``) are written the same way, before the next batch of new posts, and nobody
/// waits for them: a finish lost to a crash only means the post is delivered again.
final class StoreWriter: Sendable {
    /// What became of one post handed to ``store(_:)``.
    enum Result: Sendable {
        case stored
        case duplicate(of: EventID, outcome: EventSystem.StoredOutcome?)
        case failed(String)
    }

    private struct Pending: Sendable {
        let post: EventSystem.StoredPost
        let continuation: CheckedContinuation<Result, Never>
    }

    private struct State: Sendable {
        var posts: [Pending] = []
        var finishes: [EventSystem.StoredPost.Finish] = []
        /// Leases of a shared store to end, after the finishes written with them.
        var releases: [EventSystem.Lease] = []
        /// What to call once those leases are ended (or their release failed).
        var afterReleases: [@Sendable () -> Void] = []
        /// Whether the writing task runs.
        var writing = false
        /// Tasks waiting until nothing is left to write (``flush()``).
        var flushWaiters: [CheckedContinuation<Void, Never>] = []

        /// Marks the writer running; `true` if it was idle (the caller starts its task).
        mutating func startWriting() -> Bool {
            guard !writing else { return false }
            writing = true
            return true
        }
    }

    /// The most posts one transaction takes.
    static let maxBatch = 1024

    let store: any EventSystem.PostStore
    /// The same store, when several consumers share it.
    let shared: (any EventSystem.SharedPostStore)?
    private let state = Locked(State())

    init(store: any EventSystem.PostStore) {
        self.store = store
        self.shared = nil
    }

    init(shared: any EventSystem.SharedPostStore) {
        self.store = shared
        self.shared = shared
    }

    /// How many posts wait for a write to begin.
    var waiting: Int { state.withLock { $0.posts.count } }

    /// Hands `post` to the next write; returns once it is durable, found a duplicate, or failed.
    func store(_ post: EventSystem.StoredPost) async -> Result {
        await withCheckedContinuation { continuation in
            let start = state.withLock { state in
                state.posts.append(Pending(post: post, continuation: continuation))
                return state.startWriting()
            }
            if start { startWriting() }
        }
    }

    /// Records, with the next write, that a stored post ended.
    func finish(_ finish: EventSystem.StoredPost.Finish) {
        let start = state.withLock { state in
            state.finishes.append(finish)
            return state.startWriting()
        }
        if start { startWriting() }
    }

    /// Ends `lease` of the shared store with the next write, after the finishes handed over
    /// before it (so that no other consumer claims a post whose end is not yet written); calls
    /// `then` once it is written (or failed).
    func release(_ lease: EventSystem.Lease, then: (@Sendable () -> Void)? = nil) {
        let start = state.withLock { state in
            state.releases.append(lease)
            if let then { state.afterReleases.append(then) }
            return state.startWriting()
        }
        if start { startWriting() }
    }

    /// Returns once everything handed to the writer so far is written (or failed).
    func flush() async {
        await withCheckedContinuation { continuation in
            let idle = state.withLock { state in
                guard state.writing else { return true }
                state.flushWaiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func startWriting() {
        // Detached: the writer serves every poster, and inherits none of the one that woke it.
        Task.detached { await self.write() }
    }

    /// Writes batches until nothing is left.
    private func write() async {
        while true {
            let next = state.withLock {
                state -> (
                    posts: [Pending], finishes: [EventSystem.StoredPost.Finish],
                    releases: [EventSystem.Lease],
                    afterReleases: [@Sendable () -> Void]
                )? in
                if state.posts.isEmpty && state.finishes.isEmpty && state.releases.isEmpty {
                    state.writing = false
                    return nil
                }
                let count = min(state.posts.count, Self.maxBatch)
                let posts = Array(state.posts.prefix(count))
                state.posts.removeFirst(count)
                defer {
                    state.finishes.removeAll()
                    state.releases.removeAll()
                    state.afterReleases.removeAll()
                }
                return (posts, state.finishes, state.releases, state.afterReleases)
            }
            guard let (posts, finishes, releases, afterReleases) = next else { break }
            if !finishes.isEmpty {
                // A failed finish loses nothing: the post stays unfinished in the store, and is
                // delivered again at the next recovery (at least once).
                try? await store.finish(finishes)
            }
            if !releases.isEmpty, let shared {
                // A failed release loses nothing either: the lease expires, and the next
                // consumer claims the key after it.
                try? await shared.release(releases)
            }
            for call in afterReleases { call() }
            if !posts.isEmpty {
                for (pending, result) in zip(posts, await results(of: posts)) {
                    pending.continuation.resume(returning: result)
                }
            }
        }
        for waiter in state.withLock({ state in
            defer { state.flushWaiters.removeAll() }; return state.flushWaiters
        }) {
            waiter.resume()
        }
    }

    /// Stores `posts` in one call; a store that throws, or answers for another number of posts
    /// than it was given, fails them all.
    private func results(of posts: [Pending]) async -> [Result] {
        do {
            let acceptances = try await store.store(posts.map(\.post))
            guard acceptances.count == posts.count else {
                let failure = Result.failed(
                    "the store answered for \(acceptances.count) posts of a batch of \(posts.count)")
                return Array(repeating: failure, count: posts.count)
            }
            return acceptances.map { acceptance in
                switch acceptance {
                case .stored: .stored
                case .duplicate(let id, let outcome): .duplicate(of: id, outcome: outcome)
                }
            }
        } catch {
            return Array(repeating: .failed(String(describing: error)), count: posts.count)
        }
    }
}

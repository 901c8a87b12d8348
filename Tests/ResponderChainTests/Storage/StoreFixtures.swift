import ResponderChain
import ResponderChainTesting
import Synchronization

/// A store in front of the in-memory store `inner`: every call of the store's contract that the
/// type does not answer itself goes on to `inner` as it is.
protocol ForwardingPostStore: EventSystem.PostStore {
    var inner: EventSystem.InMemoryPostStore { get }
}

extension ForwardingPostStore {
    func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance] {
        try await inner.store(posts)
    }
    func finish(_ posts: [EventSystem.StoredPost.Finish]) async throws { try await inner.finish(posts) }
    func deadLetters(matching query: EventSystem.DeadLetterQuery) async throws -> [EventSystem
        .StoredDeadLetter]
    {
        try await inner.deadLetters(matching: query)
    }
    func redrive(_ ids: [EventID]) async throws -> [EventSystem.StoredPost] { try await inner.redrive(ids) }
    func purgeDeadLetters(_ ids: [EventID]) async throws -> Int { try await inner.purgeDeadLetters(ids) }
    func recordFailure(_ failure: EventSystem.StoredPost.Failure) async throws {
        try await inner.recordFailure(failure)
    }
    func unfinished() async throws -> [EventSystem.StoredPost] { try await inner.unfinished() }
    func outcome(of id: EventID) async throws -> EventSystem.StoredOutcome? {
        try await inner.outcome(of: id)
    }
}

/// A store that records how its calls were batched, and may hold its writes on a gate, in front
/// of an in-memory store.
final class RecordingStore: ForwardingPostStore {
    struct Failure: Error, CustomStringConvertible {
        var description: String { "disk full" }
    }

    let inner: EventSystem.InMemoryPostStore
    /// Each write of new posts waits here first, when set.
    let gate: Gate?
    /// Whether writes of new posts fail.
    let failsToStore: Bool
    private let batches = Locked<[Int]>([])

    init(_ inner: EventSystem.InMemoryPostStore = .init(), gate: Gate? = nil, failsToStore: Bool = false) {
        self.inner = inner
        self.gate = gate
        self.failsToStore = failsToStore
    }

    /// The size of each batch of new posts, in order.
    var storedBatches: [Int] { batches.withLock { $0 } }

    func store(_ posts: [EventSystem.StoredPost]) async throws -> [EventSystem.StoredPost.Acceptance] {
        batches.withLock { $0.append(posts.count) }
        if let gate { try await gate.pass() }
        if failsToStore { throw Failure() }
        return try await inner.store(posts)
    }
}

/// An order event, stored by the in-memory store as it is.
struct PlaceOrder: Event, Equatable {
    let number: Int
}

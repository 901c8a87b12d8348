public import ResponderChain
/// An in-memory dead-letter sink for tests: it keeps every ``DeadLetter`` in the order it
/// arrived, and lets a test wait for the letters it expects without sleeping.
/// (Precedent: swift-log's `InMemoryLogHandler`.)
///
/// Install its ``sink`` on a router (for a whole chain) or in `SendOptions` (for one send):
///
/// ```swift
/// let deadLetters = DeadLetterRecorder()
/// let router = EventRouter(deadLetters: deadLetters.sink)
///
/// await detachedView.send(Tapped())
/// let letters = try await deadLetters.waitForLetters(1)
/// #expect(letters[0].outcome.kind == .interrupted)
/// ```
///
/// An awaited send delivers its dead letter before it returns, so after `await send(…)` the
/// letter is already in ``letters``; ``waitForLetters(_:)`` is for letters from posted events and
/// other tasks.
public final class DeadLetterRecorder: Sendable {
    private struct Waiter {
        let id: UInt64
        let count: Int
        let continuation: CheckedContinuation<[DeadLetter], any Error>
    }

    private struct State {
        var letters: [DeadLetter] = []
        var nextID: UInt64 = 0
        var waiters: [Waiter] = []
        var cancelledBeforeWaiting: Set<UInt64> = []

        /// Removes and returns the waiters whose count has been reached.
        mutating func takeSatisfiedWaiters() -> [Waiter] {
            let ready = waiters.filter { $0.count <= letters.count }
            waiters.removeAll { $0.count <= letters.count }
            return ready
        }
    }

    private let state = Locked(State())

    /// An empty recorder.
    public init() {}

    /// A sink that records into this recorder.
    public var sink: DeadLetterSink {
        DeadLetterSink { [self] letter in record(letter) }
    }

    /// Every letter received so far, in arrival order.
    public var letters: [DeadLetter] { state.withLock { $0.letters } }

    /// The outcomes of the letters received so far, in arrival order.
    public var outcomes: [Outcome] { letters.map(\.outcome) }

    /// How many letters have arrived.
    public var count: Int { state.withLock { $0.letters.count } }

    /// Appends `letter` and wakes the tests waiting for it.
    public func record(_ letter: DeadLetter) {
        let ready = state.withLock { state -> [(Waiter, [DeadLetter])] in
            state.letters.append(letter)
            return state.takeSatisfiedWaiters().map { ($0, Array(state.letters.prefix($0.count))) }
        }
        for (waiter, letters) in ready { waiter.continuation.resume(returning: letters) }
    }

    /// Returns the first `count` letters once at least that many have arrived; at once if they
    /// already have.
    ///
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    @discardableResult
    public func waitForLetters(_ count: Int) async throws -> [DeadLetter] {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<[DeadLetter], any Error>) in
                let result = state.withLock { state -> Result<[DeadLetter], any Error>? in
                    if state.cancelledBeforeWaiting.remove(id) != nil {
                        return .failure(CancellationError())
                    }
                    if state.letters.count >= count { return .success(Array(state.letters.prefix(count))) }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let index = state.waiters.firstIndex(where: { $0.id == id }) {
                    return state.waiters.remove(at: index)
                }
                state.cancelledBeforeWaiting.insert(id)
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Forgets the letters received so far (waiters keep waiting).
    public func reset() {
        state.withLock { $0.letters.removeAll() }
    }
}

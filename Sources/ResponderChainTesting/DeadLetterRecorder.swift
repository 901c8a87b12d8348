public import ResponderChain
/// An in-memory dead-letter sink for tests: it keeps every `DeadLetter` in the order it
/// arrived, and lets a test wait for the letters it expects without sleeping.
/// (Precedent: swift-log's `InMemoryLogHandler`.)
///
/// Install its ``sink`` on a system (for a whole chain) or in `SendOptions` (for one send):
///
/// ```swift
/// let deadLetters = DeadLetterRecorder()
/// let system = EventSystem(deadLetters: deadLetters.sink)
///
/// await detachedView.send(Tapped())
/// let letters = try await deadLetters.waitForLetters(1)
/// #expect(letters[0].outcome.kind == .interrupted)
/// ```
///
/// An awaited send delivers its dead letter before it returns, so after `await send(…)` the
/// letter is already in ``letters``; ``waitForLetters(_:within:)`` is for letters from posted events and
/// other tasks.
public final class DeadLetterRecorder: Sendable {
    private struct State {
        var letters: [DeadLetter] = []
        /// Tests waiting for a number of letters.
        var waiters = WaitingLine<Int, CheckedContinuation<Result<[DeadLetter], CancellationError>, Never>>()
    }

    private let state = Locked(State())

    /// An empty recorder.
    public init() {}

    /// A sink that records into this recorder.
    public var sink: DeadLetter.Sink {
        DeadLetter.Sink { [self] letter in record(letter) }
    }

    /// Every letter received so far, in arrival order.
    public var letters: [DeadLetter] { state.withLock { $0.letters } }

    /// The outcomes of the letters received so far, in arrival order.
    public var outcomes: [Outcome] { letters.map(\.outcome) }

    /// How many letters have arrived.
    public var count: Int { state.withLock { $0.letters.count } }

    /// Appends `letter` and wakes the tests waiting for it.
    public func record(_ letter: DeadLetter) {
        let ready = state.withLock { state in
            state.letters.append(letter)
            let count = state.letters.count
            return state.waiters.removeAll { $0 <= count }.map {
                ($0, Array(state.letters.prefix($0.element)))
            }
        }
        for (waiter, letters) in ready { waiter.continuation.resume(returning: .success(letters)) }
    }

    /// Returns the first `count` letters once at least that many have arrived; at once if they
    /// already have. Each letter that arrives wakes the waits it satisfies.
    ///
    /// - Parameters:
    ///   - count: How many letters to wait for.
    ///   - limit: How long to wait at most.
    /// - Throws: ``WaitTimedOut``, listing the letters that had arrived, if fewer than `count`
    ///   have after `limit`; `CancellationError` if the waiting task is cancelled first.
    @discardableResult
    public func waitForLetters(_ count: Int, within limit: Duration = .seconds(30)) async throws
        -> [DeadLetter]
    {
        let arrived = state.withLock { $0.letters.count >= count ? Array($0.letters.prefix(count)) : nil }
        if let arrived { return arrived }
        let ending = try await TimeLimit.race(limit) { [self] in
            try await state.wait(
                in: \State.waiters, as: count,
                unless: { $0.letters.count >= count ? .success(Array($0.letters.prefix(count))) : nil },
                cancelled: .failure(CancellationError())
            ).get()
        }
        switch ending {
        case .value(let letters): return letters
        case .timeUp:
            let letters = self.letters
            let list = letters.map { "\($0.event.traceName) \($0.outcome)" }.joined(separator: "; ")
            throw WaitTimedOut(
                condition: "\(count) dead letter\(count == 1 ? "" : "s")", limit: limit,
                arrived: "\(letters.count) arrived\(letters.isEmpty ? "" : ": \(list)")")
        }
    }

    /// Forgets the letters received so far (waiters keep waiting).
    public func reset() {
        state.withLock { $0.letters.removeAll() }
    }
}

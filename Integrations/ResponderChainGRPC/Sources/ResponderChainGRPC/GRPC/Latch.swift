import Synchronization

/// Closed until ``open()``, then open for good: ``wait()`` returns at once when it is open, and
/// otherwise suspends until it opens. A waiter whose task is cancelled leaves at once.
final class Latch: Sendable {
    private struct State {
        var isOpen = false
        var nextID: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    }

    private let state = Mutex(State())

    /// Returns once the latch is open.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    func wait() async throws {
        let id: UInt64? = state.withLock { state in
            if state.isOpen { return nil }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if state.isOpen { return .success(()) }
                    // Cancelled before this point: the handler found no waiter to wake.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Opens the latch: every waiter goes on.
    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether it is open.
    var isOpen: Bool { state.withLock { $0.isOpen } }
}

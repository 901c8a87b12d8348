import GRPCCore
import Synchronization

/// At most `limit` calls in flight; the others wait their turn, first come first served.
///
/// A waiter whose task is cancelled leaves the line at once (``acquire()`` throws
/// `CancellationError`), including one cancelled before it suspended.
final class CallLimiter: Sendable {
    private struct State {
        var inFlight = 0
        var nextID: UInt64 = 0
        /// Suspended waiters in arrival order, by identity.
        var line: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    /// The most calls in flight at once.
    let limit: Int
    private let state = Mutex(State())

    /// A limiter of `limit` calls, checked by ``checkLimit(_:)`` where the transport reads it.
    init(limit: Int) {
        precondition(limit > 0, "a call limit must be at least 1 (checked by the transports)")
        self.limit = limit
    }

    /// Throws `RPCError` (`invalidArgument`) for a limit of calls in flight less than 1: the
    /// transports read it from their configuration and refuse it there, typed.
    static func checkLimit(_ limit: Int) throws(RPCError) {
        guard limit > 0 else {
            throw RPCError(
                code: .invalidArgument, message: "maxCallsInFlight must be at least 1, not \(limit)")
        }
    }

    /// Returns once the caller may make its call; call ``release()`` when it has ended.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    func acquire() async throws {
        let id: UInt64? = state.withLock { state in
            if state.inFlight < limit {
                state.inFlight += 1
                return nil
            }
            state.nextID += 1
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    // Cancelled before this point: the handler found no waiter to wake. (Under the
                    // lock: a cancellation after this check finds the waiter in the line.)
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.inFlight < limit {
                        // A call ended between the decision to wait and now.
                        state.inFlight += 1
                        return .success(())
                    }
                    state.line.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
                guard let index = state.line.firstIndex(where: { $0.id == id }) else { return nil }
                return state.line.remove(at: index).continuation
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// How many callers wait now (for tests).
    var waitingCount: Int { state.withLock { $0.line.count } }

    /// Ends a call: the longest-waiting caller, if any, takes its place.
    func release() {
        let next: CheckedContinuation<Void, any Error>? = state.withLock { state in
            guard !state.line.isEmpty else {
                state.inFlight -= 1
                return nil
            }
            return state.line.removeFirst().continuation
        }
        next?.resume()
    }
}

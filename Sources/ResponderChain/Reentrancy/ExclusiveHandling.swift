/// The FIFO locks of responders that handle one event at a time
/// (``Responder/handlesOneEventAtATime``), keyed by responder identity.
///
/// Actors are reentrant: while a handler awaits, the actor runs other work, including the
/// handlers of other events. A responder that opts out of that is visited under its lock: an
/// event that reaches it while another event's handler is running (or suspended) waits, and
/// waiting events enter in the order they reached the responder.
///
/// A lock entry exists only while the lock is held or awaited, so responders pay nothing for it
/// when idle, and one that never opts in pays nothing at all. The task that holds a lock passes
/// it straight through (a nested send from a handler that reaches the same responder again runs
/// instead of waiting for itself), and so do its child tasks.
final class ExclusiveHandling: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Entry {
        var waiters = FIFOBuffer<Waiter>()
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        var nextID: UInt64 = 0
    }

    /// The locks of every responder in the process.
    static let shared = ExclusiveHandling()

    /// The locks the current task holds.
    @TaskLocal private static var held: [ObjectIdentifier] = []

    private let state = Locked(State())

    /// Runs `body` holding `responder`'s lock: waits (FIFO) while another event holds it.
    /// - Throws: `CancellationError` if the task is cancelled while it waits; `body` did not run.
    nonisolated(nonsending) func withLock<Result>(
        of responder: ObjectIdentifier,
        _ body: nonisolated(nonsending) () async -> Result
    ) async throws -> Result {
        if Self.held.contains(responder) {
            return await body()
        }
        try await acquire(responder)
        defer { release(responder) }
        return await Self.$held.withValue(Self.held + [responder]) {
            await body()
        }
    }

    private nonisolated(nonsending) func acquire(_ responder: ObjectIdentifier) async throws {
        let claimed = state.withLock { state -> Bool in
            guard state.entries[responder] == nil else { return false }
            state.entries[responder] = Entry()
            return true
        }
        if claimed { return }

        let waiterID = Locked<UInt64?>(nil)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let result = state.withLock { state -> Result<Void, any Error>? in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    guard state.entries[responder] != nil else {
                        state.entries[responder] = Entry()  // released meanwhile: take it
                        return .success(())
                    }
                    state.nextID += 1
                    waiterID.withLock { $0 = state.nextID }
                    state.entries[responder]?.waiters.append(
                        Waiter(id: state.nextID, continuation: continuation))
                    return nil
                }
                if let result { continuation.resume(with: result) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let id = waiterID.withLock({ $0 }) else { return nil }
                return state.entries[responder]?.waiters.remove { $0.id == id }
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Hands the lock to the first waiter, or frees it.
    private func release(_ responder: ObjectIdentifier) {
        let next = state.withLock { state -> Waiter? in
            guard let waiter = state.entries[responder]?.waiters.popFirst() else {
                state.entries[responder] = nil
                return nil
            }
            return waiter
        }
        next?.continuation.resume()
    }

    /// The number of events waiting for `responder`'s lock (for tests and diagnostics).
    func waitingCount(for responder: ObjectIdentifier) -> Int {
        state.withLock { $0.entries[responder]?.waiters.count ?? 0 }
    }
}

/// The FIFO locks of responders that handle one event at a time
/// (``Responder/handlesOneEventAtATime``), keyed by responder identity.
///
/// Actors are reentrant: while a handler awaits, the actor runs other work, including the
/// handlers of other events. A responder that opts out of that is visited under its lock: an
/// event that reaches it while another event's handler is running (or suspended) waits, and
/// waiting events enter in the order they reached the responder.
///
/// Each acquisition is a ``Hold``, a token that the lock records as its holder. The task that
/// runs the hop carries its holds in a task-local, so that a nested send from the running handler
/// that reaches the same responder again passes through instead of waiting for itself. A hold
/// passes only while it *is* the holder: once the handler returns, the lock moves on and the
/// token is void, so a task that the handler started and that outlives it waits like any other
/// event. Delivery tasks of posted events never carry the poster's holds (see ``PostOffice``).
///
/// A lock entry exists only while the lock is held or awaited, so responders pay nothing for it
/// when idle, and one that never opts in pays nothing at all.
final class ExclusiveHandling: Sendable {
    /// One acquisition of one responder's lock.
    final class Hold: Sendable {
        let responder: ObjectIdentifier

        init(_ responder: ObjectIdentifier) {
            self.responder = responder
        }
    }

    /// How a wait for a lock ended.
    enum Admission: Sendable {
        /// The lock was handed over (or was free).
        case acquired
        /// The waiting task was cancelled.
        case cancelled
    }

    struct State {
        /// The current hold of each locked responder.
        var holders: [ObjectIdentifier: Hold] = [:]
        /// Events waiting for a responder, each with the hold it will take.
        var line = WaitingLine<Hold, CheckedContinuation<Admission, Never>>()
    }

    /// The locks of every responder in the process.
    static let shared = ExclusiveHandling()

    /// The holds of the hops the current task is running (innermost last).
    @TaskLocal private static var holds: [Hold] = []

    private let state = Locked(State())

    /// Runs `body` holding `responder`'s lock: waits (FIFO) while another event holds it.
    /// - Throws: `CancellationError` if the task is cancelled while it waits; `body` did not run.
    nonisolated(nonsending) func withLock<Result>(
        of responder: ObjectIdentifier,
        _ body: nonisolated(nonsending) () async -> Result
    ) async throws -> Result {
        if let held = Self.holds.last(where: { $0.responder == responder }), isCurrent(held) {
            return await body()
        }
        let hold = Hold(responder)
        guard await acquire(hold) == .acquired else { throw CancellationError() }
        defer { release(hold) }
        return await Self.$holds.withValue(Self.holds + [hold]) {
            await body()
        }
    }

    /// Whether `hold` is still its responder's holder.
    private func isCurrent(_ hold: Hold) -> Bool {
        state.withLock { $0.holders[hold.responder] === hold }
    }

    private nonisolated(nonsending) func acquire(_ hold: Hold) async -> Admission {
        await state.wait(
            in: \State.line, as: hold,
            unless: { state in
                guard state.holders[hold.responder] == nil else { return nil }
                state.holders[hold.responder] = hold
                return .acquired
            }, cancelled: .cancelled)
    }

    /// Hands the lock to the first event waiting for the same responder, or frees it.
    private func release(_ hold: Hold) {
        let next = state.withLock {
            state -> WaitingLine<Hold, CheckedContinuation<Admission, Never>>.Waiter? in
            guard let waiter = state.line.popFirst(where: { $0.responder == hold.responder }) else {
                state.holders[hold.responder] = nil
                return nil
            }
            state.holders[hold.responder] = waiter.element
            return waiter
        }
        next?.continuation.resume(returning: .acquired)
    }

    /// The number of events waiting for `responder`'s lock (for tests and diagnostics).
    func waitingCount(for responder: ObjectIdentifier) -> Int {
        state.withLock { $0.line.count { $0.responder == responder } }
    }
}

internal import Synchronization

/// One store operation on a leased connection: its caller's continuation, and which of its
/// possible ends came first. The ends race: the operation's result, the connection closing
/// under it, no connection within the store's wait, the caller's cancellation while it waits;
/// the first one resumes the caller, the later ones change nothing.
final class ConnectionOperation<Value: Sendable>: Sendable {
    private enum Phase {
        /// The caller's continuation is not set yet.
        case starting
        /// Waiting for a connection.
        case waiting(CheckedContinuation<Value, any Error>)
        /// Running on a connection.
        case running(CheckedContinuation<Value, any Error>)
        /// The caller was resumed; a connection that comes now is given back at once.
        case ended
    }

    private struct State {
        var phase = Phase.starting
        /// The task that leases a connection and runs the operation on it.
        var work: Task<Void, Never>?
        /// The task that gives up the wait for a connection.
        var timer: Task<Void, Never>?
        /// The task that runs the operation's body on its connection.
        var body: Task<Void, Never>?
        /// The caller was cancelled while the operation ran.
        var cancelled = false
        /// An end that came before the continuation was set.
        var early: Result<Value, any Error>?
    }

    private let state = Mutex(State())

    /// Sets the caller's continuation (resumed at once if the operation ended before).
    func start(_ continuation: CheckedContinuation<Value, any Error>) {
        let early = state.withLock { state -> Result<Value, any Error>? in
            if let early = state.early {
                state.phase = .ended
                return early
            }
            state.phase = .waiting(continuation)
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Keeps the operation's tasks: the timer is cancelled once a connection came (at once if
    /// it came already); the work task if the operation ends while it waits for a connection
    /// (its request leaves the pool's queue), or if the caller is cancelled while it runs.
    func keep(work: Task<Void, Never>, timer: Task<Void, Never>) {
        let phase = state.withLock { state -> Phase in
            state.work = work
            state.timer = timer
            return state.phase
        }
        switch phase {
        case .starting, .waiting: break
        case .running: timer.cancel()
        case .ended:
            timer.cancel()
            work.cancel()
        }
    }

    /// A connection came: `true` if the operation still waits for one (it runs now); `false`
    /// if it ended meanwhile (the connection goes back at once).
    func begin() -> Bool {
        let timer = state.withLock { state -> Task<Void, Never>?? in
            guard case .waiting(let continuation) = state.phase else { return .none }
            state.phase = .running(continuation)
            return .some(state.timer)
        }
        guard let timer else { return false }
        timer?.cancel()
        return true
    }

    /// Keeps the task that runs the operation's body: cancelled at once if the caller was
    /// cancelled already, or when it is.
    func keep(body: Task<Void, Never>) {
        let cancelled = state.withLock { state -> Bool in
            state.body = body
            return state.cancelled
        }
        if cancelled { body.cancel() }
    }

    /// Ends the operation with `result`, unless something ended it already.
    func end(_ result: Result<Value, any Error>) {
        settle(result, whileRunning: true)
    }

    /// Ends the operation with `error` if it still waits for a connection.
    func giveUp(_ error: any Error) {
        settle(.failure(error), whileRunning: false)
    }

    /// Ends the operation with `result` if it has not ended, and if it runs only when
    /// `whileRunning`.
    private func settle(_ result: Result<Value, any Error>, whileRunning: Bool) {
        let (continuation, tasks) = state.withLock {
            state -> (CheckedContinuation<Value, any Error>?, [Task<Void, Never>?]) in
            switch state.phase {
            case .starting:
                if state.early == nil { state.early = result }
                return (nil, [])
            case .waiting(let continuation):
                // The request for a connection is cancelled too, so that the pool's queue does
                // not keep requests nobody waits for.
                state.phase = .ended
                return (continuation, [state.timer, state.work])
            case .running(let continuation) where whileRunning:
                state.phase = .ended
                return (continuation, [state.timer])
            case .running, .ended:
                return (nil, [])
            }
        }
        for task in tasks { task?.cancel() }
        continuation?.resume(with: result)
    }

    /// The caller was cancelled: an operation that waits for a connection ends at once
    /// (`CancellationError`); a running one has its body's task cancelled, and its caller waits
    /// for its end, so that nobody is told it failed while it may still commit.
    func cancel() {
        let running = state.withLock { state -> [Task<Void, Never>?]? in
            guard case .running = state.phase else { return nil }
            state.cancelled = true
            return [state.work, state.body]
        }
        guard let running else { return giveUp(CancellationError()) }
        for task in running { task?.cancel() }
    }
}

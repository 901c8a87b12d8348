extension Locked {
    /// A key path to a ``WaitingLine`` of suspended tasks inside the locked state.
    package typealias Line<Element, Value> = any WritableKeyPath<
        State, WaitingLine<Element, CheckedContinuation<Value, Never>>
    > & Sendable

    /// Suspends the calling task in the line at `line` until another task resumes it, unless
    /// `admit` lets it through at once. This is the storage half of ``WaitingLine``: the state
    /// machine decides, this function holds the continuation and resumes it outside the lock.
    ///
    /// - `admit` runs under the lock, first before any waiter identity is made (the fast path:
    ///   no continuation, no cancellation handler), then once more just before suspending, in
    ///   case room appeared meanwhile. It returns the value to return at once, or `nil` to wait.
    ///   It may change the state (claim a lock, queue a post); it must not resume anyone.
    /// - `cancelled` is the value a cancelled waiter returns; `nil` makes the wait ignore
    ///   cancellation (like `Task.value`). A waiter cancelled before it suspends never enters
    ///   the line and is not admitted.
    ///
    /// Whoever resumes a waiter pops it from the line under the lock, then resumes its
    /// continuation outside the lock.
    package nonisolated(nonsending) func wait<Element: Sendable, Value: Sendable>(
        in line: Line<Element, Value>,
        as element: Element,
        unless admit: (inout State) -> Value?,
        cancelled: Value?
    ) async -> Value {
        let entry = withLock { state -> WaitEntry<Value> in
            if let admitted = admit(&state) { return .admitted(admitted) }
            return .waiting(state[keyPath: line].makeID())
        }
        let id: WaiterID
        switch entry {
        case .admitted(let value): return value
        case .waiting(let waiter): id = waiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value, Never>) in
                let immediate = withLock { state -> Value? in
                    if let cancelled, state[keyPath: line].isCancelledBeforeSuspending(id) {
                        state[keyPath: line].withdraw(id)
                        return cancelled
                    }
                    if let admitted = admit(&state) {
                        state[keyPath: line].withdraw(id)
                        return admitted
                    }
                    switch state[keyPath: line].suspend(id, element: element, continuation: continuation) {
                    case .suspended: return nil
                    case .cancelledBeforeSuspending: return cancelled
                    }
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            guard let cancelled else { return }
            let action = withLock { $0[keyPath: line].cancel(id) }
            if case .resume(let waiter) = action {
                waiter.continuation.resume(returning: cancelled)
            }
        }
    }
}

/// The first step of ``Locked/wait(in:as:unless:cancelled:)``: admitted at once, or an identity
/// to wait under.
private enum WaitEntry<Value> {
    case admitted(Value)
    case waiting(WaiterID)
}

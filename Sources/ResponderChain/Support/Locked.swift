import Synchronization

/// A `Mutex` whose critical sections the thread sanitizer can see as ordered.
///
/// On Linux, `Synchronization.Mutex` waits through futex calls inside the uninstrumented runtime,
/// so the thread sanitizer sees no ordering between critical sections and reports a false race.
/// Each critical section here also loads (acquiring) and stores (releasing) an atomic token that
/// the sanitizer does see; the mutex already orders them, so the token never makes anyone wait.
/// Use it instead of `Mutex` everywhere in the package.
package struct Locked<State>: ~Copyable, Sendable {
    private let mutex: Mutex<State>
    private let token = Atomic<UInt>(0)

    /// A lock around `initial`.
    package init(_ initial: consuming sending State) {
        mutex = Mutex(initial)
    }

    /// Runs `body` with exclusive access to the state.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending State) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (state: inout sending State) throws(E) -> sending Result in
            _ = token.load(ordering: .acquiring)
            defer { token.store(0, ordering: .releasing) }
            return try body(&state)
        }
    }
}

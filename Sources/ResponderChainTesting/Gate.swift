import ResponderChain

/// A gate that parks tasks until it is opened: use it to hold a handler mid-flight in a test.
///
/// A handler calls ``pass()``; the test waits until the handler has arrived with
/// ``waitForArrivals(_:)``, changes the world (re-links the chain, cancels the sender, detaches a
/// window), then calls ``open()``.
///
/// ```swift
/// let gate = Gate()
/// // in a handler:   try await gate.pass()
/// let sending = Task { await leaf.send(Ping()) }
/// await gate.waitForArrivals(1)
/// await leaf.relink(to: other)
/// gate.open()
/// let outcome = await sending.value
/// ```
///
/// ``pass()`` is cancellation-aware: cancelling a parked task wakes it with `CancellationError`.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        /// Tasks parked at the closed gate; resumed with `true` when it opens, `false` when
        /// cancelled.
        var parked = WaitingLine<Void, CheckedContinuation<Bool, Never>>()
        /// Tasks waiting for a number of arrivals.
        var arrivalWaiters = WaitingLine<Int, CheckedContinuation<Void, Never>>()
    }

    private let state = Locked(State())

    /// A closed gate.
    public init() {}

    /// Whether the gate has been opened.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// How many tasks have called ``pass()`` so far (parked or not).
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// Passes the gate: returns at once if it is open, otherwise parks until ``open()``.
    /// - Throws: `CancellationError` if the task is cancelled while parked, or before it parks at
    ///   the closed gate.
    public func pass() async throws {
        let arrived = state.withLock { state in
            state.arrivals += 1
            let arrivals = state.arrivals
            return state.arrivalWaiters.removeAll { $0 <= arrivals }
        }
        for waiter in arrived { waiter.continuation.resume() }
        let passed = await state.wait(
            in: \State.parked, as: (), unless: { $0.isOpen ? true : nil }, cancelled: false)
        if !passed { throw CancellationError() }
    }

    /// Opens the gate: every parked task resumes, and later ``pass()`` calls return at once.
    public func open() {
        let parked = state.withLock { state in
            state.isOpen = true
            return state.parked.removeAll()
        }
        for waiter in parked { waiter.continuation.resume(returning: true) }
    }

    /// Returns once at least `count` tasks have called ``pass()``: a real signal that the
    /// handler under test has reached the gate.
    public func waitForArrivals(_ count: Int = 1) async {
        await state.wait(
            in: \State.arrivalWaiters, as: count, unless: { $0.arrivals >= count ? () : nil },
            cancelled: nil)
    }
}

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
/// try await gate.waitForArrivals(1)
/// await leaf.relink(to: other)
/// gate.open()
/// let outcome = await sending.value
/// ```
///
/// Both waits honour cancellation: cancelling a task parked in ``pass()`` or waiting in
/// ``waitForArrivals(_:)`` wakes it with `CancellationError` and takes it out of the line, so a
/// test's time limit ends a wait that would otherwise hang.
public final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var arrivals = 0
        /// Tasks parked at the closed gate; resumed with `true` when it opens, `false` when
        /// cancelled.
        var parked = WaitingLine<Void, CheckedContinuation<Bool, Never>>()
        /// Tasks waiting for a number of arrivals; resumed with `true` when enough have arrived,
        /// `false` when cancelled.
        var arrivalWaiters = WaitingLine<Int, CheckedContinuation<Bool, Never>>()
    }

    private let state = Locked(State())

    /// A closed gate.
    public init() {}

    /// Whether the gate has been opened.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// How many tasks have called ``pass()`` so far (parked or not).
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// The tasks waiting in ``waitForArrivals(_:)``: those suspended in the line, and those about
    /// to suspend. For the gate's own tests.
    package var arrivalWaiters: (suspended: Int, aboutToSuspend: Int) {
        state.withLock { ($0.arrivalWaiters.count, $0.arrivalWaiters.issuedCount) }
    }

    /// Passes the gate: returns at once if it is open, otherwise parks until ``open()``.
    /// - Throws: `CancellationError` if the task is cancelled while parked, or before it parks at
    ///   the closed gate.
    public func pass() async throws(CancellationError) {
        let arrived = state.withLock { state in
            state.arrivals += 1
            let arrivals = state.arrivals
            return state.arrivalWaiters.removeAll { $0 <= arrivals }
        }
        for waiter in arrived { waiter.continuation.resume(returning: true) }
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
    /// handler under test has reached the gate. Returns at once if they already have.
    /// - Throws: `CancellationError` if the waiting task is cancelled first; the cancelled waiter
    ///   leaves the line and takes nothing with it.
    public func waitForArrivals(_ count: Int = 1) async throws(CancellationError) {
        let arrived = await state.wait(
            in: \State.arrivalWaiters, as: count, unless: { $0.arrivals >= count ? true : nil },
            cancelled: false)
        if !arrived { throw CancellationError() }
    }
}

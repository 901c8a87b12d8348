import ResponderChain

/// A gate that parks tasks until it is opened: use it to hold a handler mid-flight in a test.
///
/// A handler calls ``pass(within:)``; the test waits until the handler has arrived with
/// ``waitForArrivals(_:within:)``, changes the world (re-links the chain, cancels the sender, detaches a
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
/// Both waits are bounded and woken by a signal: ``open()`` wakes the tasks parked in
/// ``pass(within:)``, and each arrival wakes the tasks in ``waitForArrivals(_:within:)`` that it
/// satisfies. A wait that is not woken within its limit (30 seconds unless given) throws
/// ``WaitTimedOut``, saying what it waited for and how many had arrived; cancelling the waiting
/// task wakes it with `CancellationError`. Either way it leaves the line, so a test fails
/// instead of hanging.
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

    /// How many tasks have called ``pass(within:)`` so far (parked or not).
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// The tasks waiting in ``waitForArrivals(_:within:)``: those suspended in the line, and those about
    /// to suspend. For the gate's own tests.
    package var arrivalWaiters: (suspended: Int, aboutToSuspend: Int) {
        state.withLock { ($0.arrivalWaiters.count, $0.arrivalWaiters.issuedCount) }
    }

    /// Passes the gate: returns at once if it is open, otherwise parks until ``open()``.
    ///
    /// - Parameter limit: How long to stay parked at most.
    /// - Throws: ``WaitTimedOut`` if the gate is still closed after `limit`; `CancellationError`
    ///   if the task is cancelled while parked, or before it parks at the closed gate.
    public func pass(within limit: Duration = .seconds(30)) async throws {
        let (arrived, arrivals) = state.withLock { state in
            state.arrivals += 1
            let arrivals = state.arrivals
            return (state.arrivalWaiters.removeAll { $0 <= arrivals }, arrivals)
        }
        for waiter in arrived { waiter.continuation.resume(returning: true) }
        if isOpen { return }
        let ending = try await TimeLimit.race(limit) { [self] in try await park() }
        if case .timeUp = ending {
            throw WaitTimedOut(
                condition: "the gate to open", limit: limit,
                arrived: "it was still closed, with \(self.arrivals) arrived (this one was \(arrivals))")
        }
    }

    /// Parks the calling task until ``open()``.
    private func park() async throws(CancellationError) {
        let passed = await state.wait(
            in: \State.parked, as: (), unless: { $0.isOpen ? true : nil }, cancelled: false)
        if !passed { throw CancellationError() }
    }

    /// Opens the gate: every parked task resumes, and later ``pass(within:)`` calls return at once.
    public func open() {
        let parked = state.withLock { state in
            state.isOpen = true
            return state.parked.removeAll()
        }
        for waiter in parked { waiter.continuation.resume(returning: true) }
    }

    /// Returns once at least `count` tasks have called ``pass(within:)``: a real signal that the
    /// handler under test has reached the gate. Returns at once if they already have.
    ///
    /// - Parameters:
    ///   - count: How many arrivals to wait for, counted from the gate's creation.
    ///   - limit: How long to wait at most.
    /// - Throws: ``WaitTimedOut``, saying how many had arrived, if fewer than `count` have after
    ///   `limit`; `CancellationError` if the waiting task is cancelled first. Either way the
    ///   waiter leaves the line and takes nothing with it.
    public func waitForArrivals(_ count: Int = 1, within limit: Duration = .seconds(30))
        async throws
    {
        if arrivals >= count { return }
        let ending = try await TimeLimit.race(limit) { [self] in
            let arrived = await state.wait(
                in: \State.arrivalWaiters, as: count, unless: { $0.arrivals >= count ? true : nil },
                cancelled: false)
            if !arrived { throw CancellationError() }
        }
        if case .timeUp = ending {
            let arrivals = self.arrivals
            throw WaitTimedOut(
                condition: "\(count) arrival\(count == 1 ? "" : "s") at the gate", limit: limit,
                arrived: "\(arrivals) arrived")
        }
    }
}

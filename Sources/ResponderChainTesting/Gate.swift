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
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct ArrivalWaiter {
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var isOpen = false
        var arrivals = 0
        var nextID: UInt64 = 0
        var parked: [Waiter] = []
        var arrivalWaiters: [ArrivalWaiter] = []
        var cancelledBeforeParking: Set<UInt64> = []

        mutating func takeArrivalWaiters() -> [ArrivalWaiter] {
            let ready = arrivalWaiters.filter { $0.count <= arrivals }
            arrivalWaiters.removeAll { $0.count <= arrivals }
            return ready
        }
    }

    private let state = Locked(State())

    /// A closed gate.
    public init() {}

    /// Whether the gate has been opened.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// How many tasks have called ``pass()`` so far (parked or not).
    public var arrivals: Int { state.withLock { $0.arrivals } }

    /// Passes the gate: returns at once if it is open, otherwise parks until ``open()``.
    /// - Throws: `CancellationError` if the task is cancelled while parked (or before).
    public func pass() async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, arrived) = state.withLock {
                    state -> (Result<Void, any Error>?, [ArrivalWaiter]) in
                    state.arrivals += 1
                    let arrived = state.takeArrivalWaiters()
                    if state.cancelledBeforeParking.remove(id) != nil {
                        return (.failure(CancellationError()), arrived)
                    }
                    if state.isOpen { return (.success(()), arrived) }
                    state.parked.append(Waiter(id: id, continuation: continuation))
                    return (nil, arrived)
                }
                for waiter in arrived { waiter.continuation.resume() }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                if let index = state.parked.firstIndex(where: { $0.id == id }) {
                    return state.parked.remove(at: index)
                }
                state.cancelledBeforeParking.insert(id)
                return nil
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Opens the gate: every parked task resumes, and later ``pass()`` calls return at once.
    public func open() {
        let parked = state.withLock { state -> [Waiter] in
            state.isOpen = true
            defer { state.parked.removeAll() }
            return state.parked
        }
        for waiter in parked { waiter.continuation.resume() }
    }

    /// Returns once at least `count` tasks have called ``pass()``: a real signal that the
    /// handler under test has reached the gate.
    public func waitForArrivals(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.arrivals >= count { return true }
                state.arrivalWaiters.append(ArrivalWaiter(count: count, continuation: continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// The identity of one waiter in a ``WaitingLine``, made before the waiter suspends.
///
/// Making the identity first is what lets a cancellation that arrives *before* the waiter has
/// suspended find it: the cancellation handler knows the identity even though the line does not
/// hold a continuation for it yet.
package struct WaiterID: Hashable, Sendable, CustomStringConvertible {
    /// The number of the waiter within its line, in the order identities were made.
    package let rawValue: UInt64

    /// `waiter 3`.
    package var description: String { "waiter \(rawValue)" }
}

/// A first-come, first-served line of suspended tasks, as a pure state machine.
///
/// Every place in the package where a task waits for something (a one-at-a-time responder's
/// lock, room under a posting limit, a drained system, a ticket's outcome, the test kit's gates
/// and recorders) keeps one of these inside the state its `Locked` protects. The line never
/// resumes anything, starts tasks or runs user code: each transition returns the waiters the
/// caller must resume once it is outside the lock. In the library, the line sits inside a state
/// machine (``AdmissionStateMachine``, ``ShutdownStateMachine``, ``HandlingLockStateMachine``,
/// ``TicketOutcomeStateMachine``, ``ObservationStateMachine``) whose `wait…`/`suspend…`/`cancel…`
/// transitions decide, and its owner holds the continuations' storage half: it suspends, hands
/// the continuation to the machine, and resumes what the machine hands back outside the lock.
/// The test kit's gates and recorders use ``Locked/wait(in:as:unless:cancelled:)``, the same
/// steps written once over a key path.
///
/// A waiter's life:
///
/// ```
///  makeID() ──▶ issued ──suspend()──▶ waiting ──popFirst() / removeAll(where:)──▶ resumed
///                 │                     │
///              cancel()              cancel(): removed, resume it as cancelled
///                 ▼
///   cancelled before suspending ──suspend()──▶ .cancelledBeforeSuspending (resume at once)
/// ```
///
/// `Continuation` is whatever the storage resumes (a `CheckedContinuation` in the package; any
/// value in tests, since the line only stores and returns it).
package struct WaitingLine<Element, Continuation> {
    /// One suspended waiter.
    package struct Waiter {
        package let id: WaiterID
        package let element: Element
        package let continuation: Continuation
    }

    /// What ``suspend(_:element:continuation:)`` did.
    package enum SuspendAction {
        /// The waiter is in the line.
        case suspended
        /// The waiter was cancelled before it could suspend: resume its continuation as
        /// cancelled now. It is not in the line.
        case cancelledBeforeSuspending
    }

    /// What ``cancel(_:)`` did.
    package enum CancelAction {
        /// The waiter was in the line and has been removed: resume it as cancelled.
        case resume(Waiter)
        /// The waiter had not suspended yet: it is remembered as cancelled, and its
        /// ``suspend(_:element:continuation:)`` will answer ``SuspendAction/cancelledBeforeSuspending``.
        case markedBeforeSuspending
        /// The waiter has already been resumed (or withdrawn): nothing to do.
        case none
    }

    private var waiters = FIFOBuffer<Waiter>()
    /// Identities made but not yet suspended or withdrawn; `true` once cancelled.
    private var issued: [WaiterID: Bool] = [:]
    private var nextID: UInt64 = 0

    package init() {}

    /// The number of suspended waiters.
    package var count: Int { waiters.count }

    /// Whether no waiter is suspended.
    package var isEmpty: Bool { waiters.isEmpty }

    /// The number of suspended waiters whose element matches.
    package func count(where matches: (Element) -> Bool) -> Int {
        waiters.count { matches($0.element) }
    }

    /// The number of identities made that have neither suspended nor been withdrawn.
    package var issuedCount: Int { issued.count }

    /// Makes the identity of a new waiter. Call it before suspending; then either
    /// ``suspend(_:element:continuation:)`` or ``withdraw(_:)`` it.
    package mutating func makeID() -> WaiterID {
        nextID += 1
        let id = WaiterID(rawValue: nextID)
        issued[id] = false
        return id
    }

    /// Puts the waiter `id` at the back of the line, unless it was cancelled before it got here.
    package mutating func suspend(_ id: WaiterID, element: Element, continuation: Continuation)
        -> SuspendAction
    {
        let cancelled = issued.removeValue(forKey: id) ?? false
        if cancelled { return .cancelledBeforeSuspending }
        waiters.append(Waiter(id: id, element: element, continuation: continuation))
        return .suspended
    }

    /// Whether the waiter `id` was cancelled before it suspended.
    package func isCancelledBeforeSuspending(_ id: WaiterID) -> Bool {
        issued[id] ?? false
    }

    /// Forgets the identity `id` of a waiter that did not need to suspend after all.
    package mutating func withdraw(_ id: WaiterID) {
        issued.removeValue(forKey: id)
    }

    /// Cancels the waiter `id`, wherever it is in its life.
    package mutating func cancel(_ id: WaiterID) -> CancelAction {
        if issued[id] != nil {
            issued[id] = true
            return .markedBeforeSuspending
        }
        if let waiter = waiters.remove(where: { $0.id == id }) {
            return .resume(waiter)
        }
        return .none
    }

    /// Removes and returns the waiter at the front of the line.
    package mutating func popFirst() -> Waiter? {
        waiters.popFirst()
    }

    /// Removes and returns the first waiter, in line order, whose element matches.
    package mutating func popFirst(where matches: (Element) -> Bool) -> Waiter? {
        waiters.remove { matches($0.element) }
    }

    /// Removes and returns every waiter whose element matches, in line order.
    package mutating func removeAll(where matches: (Element) -> Bool) -> [Waiter] {
        waiters.removeAll { matches($0.element) }
    }

    /// Removes and returns every waiter, in line order.
    package mutating func removeAll() -> [Waiter] {
        var all: [Waiter] = []
        all.reserveCapacity(waiters.count)
        while let waiter = waiters.popFirst() { all.append(waiter) }
        return all
    }
}

extension WaitingLine.Waiter: Sendable where Element: Sendable, Continuation: Sendable {}

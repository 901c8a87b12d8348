/// The buffer of one observation stream and the consumers waiting on it, as a pure state machine.
///
/// Each transition returns what its caller must resume once outside the lock; nothing here
/// suspends or resumes a task. ``ObserverRegistry`` holds one machine per stream under its lock: a
/// consumer asks ``next()``, and if it must wait, hands its continuation to
/// ``suspendConsumer(_:continuation:)`` (or takes it back through ``cancelConsumer(_:)``).
/// `Consumer` is whatever the registry resumes (a `CheckedContinuation` there; any value in tests,
/// since the machine only stores and returns it).
///
/// ```
///            receive: a consumer waits? ──yes──▶ hand it the element (the caller resumes it)
///              ┌──────┐   │ no
///              ▼      │   ▼
///          ┌────────┐ │  room? append : drop by policy (keepingNewest: the oldest unread,
///          │  open  │─┘                 keepingOldest: this one), and count it
///          └────────┘
///              │ finish: every waiting consumer is handed back, to resume with nil
///              ▼
///          ┌──────────┐  read: the unread elements, then nil; receive: ignored;
///          │ finished │  finish: nothing more
///          └──────────┘
/// ```
///
/// Consumers wait only while nothing is unread, and are served first come, first served: each
/// element goes to exactly one consumer, the one that has waited longest.
package struct ObservationStateMachine<Element: Sendable, Consumer> {
    /// The line of consumers suspended in `next()`.
    package typealias Consumers = WaitingLine<Void, Consumer>

    private enum State {
        /// Receiving: the elements not read yet, oldest first (perhaps none).
        case open(FIFOBuffer<Element>)
        /// Finished: the elements still to read, oldest first. No consumer waits.
        case finished(FIFOBuffer<Element>)
        /// Held only inside a transition, so that the buffer it changes has one owner.
        case modifying
    }

    /// What ``finish()`` asks of its caller.
    package enum FinishAction {
        /// Nothing: the stream had finished already.
        case alreadyFinished
        /// The stream has just finished: resume these consumers (every one that waited) with `nil`.
        case finished(resuming: [Consumers.Waiter])
    }

    /// Consumers suspended in `next()`, resumed with an element, or `nil` at the end. Only
    /// ``suspendConsumer(_:continuation:)`` adds to it; it is empty unless nothing is unread.
    package private(set) var consumers = Consumers()
    /// The size of the buffer, and what a full one drops.
    package let buffering: ObservationStream<Element>.Buffering
    /// The number of elements dropped because the buffer was full. Never goes down.
    package private(set) var droppedCount = 0
    private var state: State = .open(FIFOBuffer())

    /// An open stream with nothing unread and no consumer.
    package init(buffering: ObservationStream<Element>.Buffering) {
        self.buffering = buffering
    }

    /// Whether the stream has finished.
    package var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// The number of elements received and not read yet.
    package var unreadCount: Int {
        switch state {
        case .open(let unread), .finished(let unread): return unread.count
        case .modifying: return 0
        }
    }

    /// Takes in `element`: returns the consumer that has waited longest, to resume with it, if
    /// one waits; otherwise keeps it, or, when the buffer is full, drops an element by the
    /// buffering policy and counts it. A finished stream ignores it.
    package mutating func receive(_ element: Element) -> Consumers.Waiter? {
        guard case .open(var unread) = state else { return nil }
        if let consumer = consumers.popFirst() { return consumer }
        state = .modifying
        if unread.count < buffering.capacity {
            unread.append(element)
        } else {
            droppedCount += 1
            switch buffering.policy {
            case .dropOldest:
                _ = unread.popFirst()
                unread.append(element)
            case .dropNewest:
                break
            }
        }
        state = .open(unread)
        return nil
    }

    /// What a consumer asking for the next element gets at once: the oldest unread element,
    /// `nil` (as `.some(nil)`) when the stream has finished and nothing is left, or `nil` to
    /// wait in ``consumers``.
    package mutating func read() -> Element?? {
        switch state {
        case .open(var unread):
            guard !unread.isEmpty else { return nil }
            state = .modifying
            let element = unread.popFirst()
            state = .open(unread)
            return .some(element)
        case .finished(var unread):
            state = .modifying
            let element = unread.popFirst()
            state = .finished(unread)
            return .some(element)
        case .modifying:
            preconditionFailure("an observation stream changed inside one of its own transitions")
        }
    }

    /// What ``next()`` decided.
    package enum NextAction {
        /// Return this at once: the oldest unread element, or `nil` (the stream has finished and
        /// nothing is left).
        case element(Element?)
        /// Nothing is unread: suspend with this identity (``suspendConsumer(_:continuation:)``).
        case mustWait(WaiterID)
    }

    /// What ``suspendConsumer(_:continuation:)`` did.
    package enum SuspendConsumerAction {
        /// The consumer waits in ``consumers``.
        case suspended
        /// Resume the consumer at once with this: an element that arrived meanwhile, or `nil`
        /// (the stream finished with nothing left, or the consumer was cancelled).
        case resume(Element?)
    }

    /// A consumer asks for the next element: at once if one is unread (or the stream has
    /// finished), otherwise the identity to wait under.
    package mutating func next() -> NextAction {
        if let element = read() { return .element(element) }
        return .mustWait(consumers.makeID())
    }

    /// Suspends the consumer `id` (made by ``next()``) with `continuation`, unless it was
    /// cancelled meanwhile, or an element (or the end) came.
    package mutating func suspendConsumer(_ id: WaiterID, continuation: Consumer) -> SuspendConsumerAction {
        if consumers.isCancelledBeforeSuspending(id) {
            consumers.withdraw(id)
            return .resume(nil)
        }
        if let element = read() {
            consumers.withdraw(id)
            return .resume(element)
        }
        switch consumers.suspend(id, element: (), continuation: continuation) {
        case .suspended: return .suspended
        case .cancelledBeforeSuspending: return .resume(nil)
        }
    }

    /// Cancels the consumer `id`: the continuation to resume with `nil`, if it was suspended;
    /// otherwise it is remembered as cancelled for when it arrives.
    package mutating func cancelConsumer(_ id: WaiterID) -> Consumer? {
        if case .resume(let waiter) = consumers.cancel(id) { return waiter.continuation }
        return nil
    }

    /// Ends the stream: every waiting consumer is handed back, to resume with `nil`; the unread
    /// elements stay readable; later elements are ignored.
    package mutating func finish() -> FinishAction {
        switch state {
        case .open(let unread):
            state = .finished(unread)
            return .finished(resuming: consumers.removeAll())
        case .finished:
            return .alreadyFinished
        case .modifying:
            preconditionFailure("an observation stream changed inside one of its own transitions")
        }
    }
}

extension ObservationStateMachine.SuspendConsumerAction: Equatable where Element: Equatable {}

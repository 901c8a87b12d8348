/// The buffer of one observation stream and the consumers waiting on it, as a pure state machine.
///
/// Each transition returns what its caller must resume once outside the lock; nothing here
/// suspends or resumes a task. ``ObserverRegistry`` holds one machine per stream under its lock
/// and suspends consumers into ``consumers`` through ``Locked/wait(in:as:unless:cancelled:)``,
/// with ``read()`` as the test that lets a consumer through at once. `Consumer` is whatever the
/// registry resumes (a `CheckedContinuation` there; any value in tests, since the machine only
/// stores and returns it).
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
    /// ``Locked/wait(in:as:unless:cancelled:)`` adds to it; it is empty unless nothing is unread.
    package var consumers = Consumers()
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

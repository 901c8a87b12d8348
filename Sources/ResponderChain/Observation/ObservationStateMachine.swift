/// The buffer of one observation stream and the consumers waiting on it, as a pure state machine.
///
/// Each transition returns what its caller must do once outside the lock: resume a consumer with
/// an element, or with `nil`. Nothing here suspends or resumes a task: ``ObserverRegistry`` holds
/// one machine per stream under its lock, suspends consumers into it and resumes what it hands
/// back. `Consumer` is whatever the registry resumes (a `CheckedContinuation` there; any value in
/// tests, since the machine only stores and returns it).
///
/// ```
///                    next, nothing unread: suspend
///   ┌───────────┐ ──────────────────────────────────▶ ┌───────────┐
///   │ buffering │                                     │  waiting  │
///   └───────────┘ ◀────────────────────────────────── └───────────┘
///     │ receive: append (full: drop by policy)     receive: the longest-waiting consumer
///     │ next: the oldest unread element            takes it; cancel: it leaves; back to
///     │                                            buffering once none waits
///     │ finish                                          │ finish: every consumer resumes
///     ▼                                                 │ with nil
///   ┌───────────┐ ◀─────────────────────────────────────┘
///   │ finished  │  next: the unread elements, then nil; receive: ignored
///   └───────────┘
/// ```
///
/// Consumers wait first come, first served: each element goes to exactly one consumer, the one
/// that has waited longest. Consumers wait only while nothing is unread, and elements are kept
/// only while no consumer waits.
package struct ObservationStateMachine<Element: Sendable, Consumer> {
    /// The identity of a consumer about to wait, made before it suspends so that its
    /// cancellation can find it.
    package typealias ConsumerID = UInt64

    private enum State {
        /// Open, and no consumer waits: the elements not read yet, oldest first (perhaps none).
        case buffering(FIFOBuffer<Element>)
        /// Open, and nothing is unread: the consumers waiting for the next element, in the order
        /// they came. Never empty.
        case waiting(FIFOBuffer<(id: ConsumerID, consumer: Consumer)>)
        /// Finished: the elements still to read, oldest first. No consumer waits.
        case finished(FIFOBuffer<Element>)
        /// Held only inside a transition, so that the buffer it changes has one owner.
        case modifying
    }

    /// What ``receive(_:)`` asks of its caller.
    package enum ReceiveAction {
        /// Nothing: the element is kept, or dropped, or the stream has finished.
        case none
        /// Resume this consumer with the element.
        case resume(Consumer)
    }

    /// What ``next()`` asks of its caller.
    package enum NextAction {
        /// Return this at once: the oldest unread element, or `nil` when the stream has finished
        /// and nothing is left.
        case `return`(Element?)
        /// Nothing is unread: suspend under this identity, through ``suspend(_:_:isCancelled:)``.
        case suspend(ConsumerID)
    }

    /// What ``suspend(_:_:isCancelled:)`` asks of its caller.
    package enum SuspendAction {
        /// The consumer waits; a later transition hands it back.
        case suspended
        /// Resume the consumer at once with this: an element that arrived meanwhile, or `nil`
        /// (the stream has finished, or the consumer was cancelled).
        case resume(Element?)
    }

    /// What ``cancel(_:)`` asks of its caller.
    package enum CancelAction {
        /// Nothing: the consumer is not waiting (it has not suspended yet, or has been resumed).
        case none
        /// Resume this consumer with `nil`: it no longer waits.
        case resume(Consumer)
    }

    /// What ``finish()`` asks of its caller.
    package enum FinishAction {
        /// Nothing: the stream had finished already.
        case alreadyFinished
        /// The stream has just finished: resume these consumers (every one that waited) with `nil`.
        case finished(resuming: [Consumer])
    }

    /// The size of the buffer, and what a full one drops.
    package let buffering: ObservationStream<Element>.Buffering
    /// The number of elements dropped because the buffer was full. Never goes down.
    package private(set) var droppedCount = 0
    private var state: State = .buffering(FIFOBuffer())
    private var lastConsumerID: ConsumerID = 0

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
        case .buffering(let unread), .finished(let unread): return unread.count
        case .waiting, .modifying: return 0
        }
    }

    /// The number of consumers waiting.
    package var waitingCount: Int {
        if case .waiting(let consumers) = state { return consumers.count }
        return 0
    }

    /// Takes in `element`: hands it to the consumer that has waited longest, if one waits;
    /// otherwise keeps it, or, when the buffer is full, drops an element by the buffering policy
    /// and counts it. A finished stream ignores it.
    package mutating func receive(_ element: Element) -> ReceiveAction {
        switch state {
        case .buffering(var unread):
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
            state = .buffering(unread)
            return .none
        case .waiting(var consumers):
            state = .modifying
            let first = consumers.popFirst()!
            state = consumers.isEmpty ? .buffering(FIFOBuffer()) : .waiting(consumers)
            return .resume(first.consumer)
        case .finished:
            return .none
        case .modifying:
            preconditionFailure("an observation stream changed inside one of its own transitions")
        }
    }

    /// What a consumer asking for the next element gets at once: the oldest unread element,
    /// `nil` when the stream has finished and nothing is left, or an identity to wait under.
    package mutating func next() -> NextAction {
        switch state {
        case .buffering(var unread):
            guard !unread.isEmpty else { return .suspend(makeConsumerID()) }
            state = .modifying
            let element = unread.popFirst()
            state = .buffering(unread)
            return .return(element)
        case .waiting:
            return .suspend(makeConsumerID())
        case .finished(var unread):
            state = .modifying
            let element = unread.popFirst()
            state = .finished(unread)
            return .return(element)
        case .modifying:
            preconditionFailure("an observation stream changed inside one of its own transitions")
        }
    }

    /// Puts the consumer `id` (which ``next()`` told to suspend) at the back of the waiting
    /// consumers, unless it need not wait any longer: it was cancelled (`isCancelled`, read under
    /// the same lock as this transition, so that a cancellation that ran before it is seen here),
    /// an element arrived meanwhile, or the stream has finished.
    package mutating func suspend(_ id: ConsumerID, _ consumer: Consumer, isCancelled: Bool)
        -> SuspendAction
    {
        if isCancelled { return .resume(nil) }
        switch state {
        case .buffering(var unread):
            guard !unread.isEmpty else {
                var consumers = FIFOBuffer<(id: ConsumerID, consumer: Consumer)>()
                consumers.append((id, consumer))
                state = .waiting(consumers)
                return .suspended
            }
            state = .modifying
            let element = unread.popFirst()
            state = .buffering(unread)
            return .resume(element)
        case .waiting(var consumers):
            state = .modifying
            consumers.append((id, consumer))
            state = .waiting(consumers)
            return .suspended
        case .finished(var unread):
            state = .modifying
            let element = unread.popFirst()
            state = .finished(unread)
            return .resume(element)
        case .modifying:
            preconditionFailure("an observation stream changed inside one of its own transitions")
        }
    }

    /// Takes the consumer `id` out of the waiting consumers, if it is there. A consumer
    /// cancelled before it suspended is not there: its ``suspend(_:_:isCancelled:)`` sees the
    /// cancellation instead.
    package mutating func cancel(_ id: ConsumerID) -> CancelAction {
        guard case .waiting(var consumers) = state else { return .none }
        state = .modifying
        let removed = consumers.remove { $0.id == id }
        state = consumers.isEmpty ? .buffering(FIFOBuffer()) : .waiting(consumers)
        return removed.map { .resume($0.consumer) } ?? .none
    }

    /// Ends the stream: every waiting consumer is handed back, to resume with `nil`; the unread
    /// elements stay readable; later elements are ignored.
    package mutating func finish() -> FinishAction {
        switch state {
        case .buffering(let unread):
            state = .finished(unread)
            return .finished(resuming: [])
        case .waiting(var consumers):
            state = .finished(FIFOBuffer())
            var resuming: [Consumer] = []
            resuming.reserveCapacity(consumers.count)
            while let waiter = consumers.popFirst() { resuming.append(waiter.consumer) }
            return .finished(resuming: resuming)
        case .finished:
            return .alreadyFinished
        case .modifying:
            preconditionFailure("an observation stream changed inside one of its own transitions")
        }
    }

    private mutating func makeConsumerID() -> ConsumerID {
        lastConsumerID += 1
        return lastConsumerID
    }
}

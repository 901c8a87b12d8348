/// Options for one send.
///
/// ```swift
/// await cell.send(Tapped(), options: .startingAtNext)
/// await order.send(Checkout(), options: SendOptions(timeout: .seconds(2)))
/// ```
public struct SendOptions: Sendable {
    /// Where the event begins.
    public enum Start: Hashable, Sendable {
        /// At the sender: its own handlers see the event first (the default).
        case atSender
        /// At the sender's `next`: the sender's handlers never see it.
        case atNext
    }

    /// Where the event begins. Defaults to ``Start/atSender``.
    public var start: Start
    /// A moment after which the send stops with ``Outcome/timedOut(_:)``; `nil` for none.
    public var deadline: ContinuousClock.Instant?
    /// A tracer for this send only, used instead of the router's.
    public var tracer: (any Tracer)?
    /// A dead-letter sink for this send only, used instead of the router's.
    public var deadLetters: DeadLetterSink?
    /// A signal the sender keeps to withdraw the event while it is under way (the window
    /// layer's pointer sequences); the event then ends ``Outcome/cancelled(_:)`` with reason
    /// ``Outcome/Stop/Reason/withdrawn`` before its next hop.
    package var withdrawal: CancellationSignal?

    /// Options for one send.
    public init(
        start: Start = .atSender,
        deadline: ContinuousClock.Instant? = nil,
        tracer: (any Tracer)? = nil,
        deadLetters: DeadLetterSink? = nil
    ) {
        self.start = start
        self.deadline = deadline
        self.tracer = tracer
        self.deadLetters = deadLetters
    }

    /// Options with a deadline `timeout` from now.
    public init(
        start: Start = .atSender,
        timeout: Duration,
        tracer: (any Tracer)? = nil,
        deadLetters: DeadLetterSink? = nil
    ) {
        self.init(
            start: start,
            deadline: .now + timeout,
            tracer: tracer,
            deadLetters: deadLetters
        )
    }

    /// The defaults: start at the sender, no deadline, the router's tracer and sink.
    public static var `default`: SendOptions { SendOptions() }

    /// Start at the sender's `next`.
    public static var startingAtNext: SendOptions { SendOptions(start: .atNext) }
}

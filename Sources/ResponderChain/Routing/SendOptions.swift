/// Options for one send or post.
///
/// Options are plain values: build them once and reuse them. A relative ``timeout`` starts
/// counting when each send (or post) starts, not when the options were made.
///
/// ```swift
/// let quick = SendOptions(timeout: .seconds(2))
/// await order.send(Checkout(), options: quick)          // 2 s from this send
/// await cell.send(Tapped(), options: .startingAtNext)
///
/// var options = SendOptions()
/// options.info[RequestID.self] = request.id              // seen from hop 1
/// await lineItem.send(ItemAdded(sku: "A-1"), options: options)
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
    /// An instant of the event system's clock after which the send stops with
    /// ``Outcome/timedOut(_:)``; `nil` for none. Read it from the system
    /// (`system.now + .seconds(2)`), or from the event being forwarded (``EventContext/deadline``).
    public var deadline: EventSystem.Instant?
    /// How long each send made with these options may take, counted from when it starts (for a
    /// post: from the call to `post`, time in the queue included) on the event system's clock;
    /// `nil` for no limit. With a ``deadline`` too, the earlier of the two applies.
    public var timeout: Duration?
    /// Information the event carries from the start: handlers see it in ``EventContext/info``
    /// from hop 1, and hops add to it on the way up. Your copy of the options never changes.
    public var info: EventInfo
    /// A tracer for this send only, used instead of the event system's.
    public var tracer: (any Tracer)? {
        get { tracerBinding?.tracer }
        set { tracerBinding = newValue.map(TracerBinding.init) }
    }
    /// The tracer with its kind decided once, when it is set (see ``TraceBinder``).
    var tracerBinding: TracerBinding?
    /// A dead-letter sink for this send only, used instead of the event system's.
    public var deadLetters: DeadLetter.Sink?
    /// A signal the sender keeps to withdraw the event while it is under way (the window
    /// layer's pointer sequences); the event then ends ``Outcome/cancelled(_:)`` with reason
    /// ``Outcome/Stop/Reason/withdrawn`` before its next hop.
    package var withdrawal: CancellationSignal? {
        get { rare?.withdrawal }
        set { rare = RareOptions.make(withdrawal: newValue, retryPolicy: retryPolicy) }
    }
    /// Whether and how this send or post is tried again when it does not end handled, before
    /// any policy of its system (see ``EventSystem/RetryPolicies``); `nil` to leave it to them
    /// (a post) or not to retry (an awaited send). Retries stay within ``deadline``.
    ///
    /// ```swift
    /// var options = SendOptions(timeout: .seconds(30))
    /// options.retryPolicy = EventSystem.RetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(100))
    /// let outcome = await checkout.send(ChargeCard(), options: options)
    /// print(outcome.path.attempts)
    /// ```
    public var retryPolicy: EventSystem.RetryPolicy? {
        get { rare?.retryPolicy }
        set { rare = RareOptions.make(withdrawal: withdrawal, retryPolicy: newValue) }
    }
    /// The withdrawal signal and the retry policy, in one word (`nil` for neither): options are
    /// copied on every send (the default's too), each reference in them retained, and these two
    /// are rare.
    private var rare: RareOptions?

    /// Options for one send.
    ///
    /// - Parameters:
    ///   - start: Where the event begins.
    ///   - deadline: An instant of the event system's clock after which the send stops.
    ///   - timeout: How long the send may take, counted from when it starts.
    ///   - info: Information the event carries from hop 1.
    ///   - tracer: A tracer for this send only.
    ///   - deadLetters: A dead-letter sink for this send only.
    public init(
        start: Start = .atSender,
        deadline: EventSystem.Instant? = nil,
        timeout: Duration? = nil,
        info: EventInfo = EventInfo(),
        tracer: (any Tracer)? = nil,
        deadLetters: DeadLetter.Sink? = nil
    ) {
        self.start = start
        self.deadline = deadline
        self.timeout = timeout
        self.info = info
        self.tracerBinding = tracer.map(TracerBinding.init)
        self.deadLetters = deadLetters
    }

    /// The defaults: start at the sender, no deadline, no information, the event system's tracer
    /// and sink.
    public static let `default` = SendOptions()

    /// Start at the sender's `next`.
    public static var startingAtNext: SendOptions { SendOptions(start: .atNext) }

    /// Whether a send with these options needs nothing set up before its first hop: no
    /// deadline or timeout, no withdrawal signal, no tracer or retry policy of its own.
    var needsNoSetUp: Bool {
        deadline == nil && timeout == nil && rare == nil && tracerBinding == nil
    }

    /// Whether these are the default options: nothing set.
    var isDefault: Bool {
        needsNoSetUp && start == .atSender && info.isEmpty && deadLetters == nil
    }

    /// These options for a send that starts now on `clock`: a ``timeout`` becomes a
    /// ``deadline`` (the earlier one wins when both are set). The clock is read only when there
    /// is a timeout.
    func started(on clock: any TimerScheduler) -> SendOptions {
        guard let timeout else { return self }
        var started = self
        let timeoutEnd = clock.now + timeout
        started.deadline = deadline.map { min($0, timeoutEnd) } ?? timeoutEnd
        started.timeout = nil
        return started
    }
}

extension SendOptions {
    /// Not available: a deadline is an instant of the event system's clock, which a test can
    /// replace, not of `ContinuousClock`.
    @available(
        *, unavailable,
        message:
            "a deadline is an instant of the event system's clock: SendOptions(deadline: system.now + .seconds(2)), or SendOptions(timeout: .seconds(2))"
    )
    public init(
        start: Start = .atSender,
        deadline: ContinuousClock.Instant,
        timeout: Duration? = nil,
        info: EventInfo = EventInfo(),
        tracer: (any Tracer)? = nil,
        deadLetters: DeadLetter.Sink? = nil
    ) {
        self.init(start: start, timeout: timeout, info: info, tracer: tracer, deadLetters: deadLetters)
    }
}

/// What few sends carry, boxed in one reference of ``SendOptions``: a withdrawal signal (the
/// window layer's) and a retry policy.
private final class RareOptions: Sendable {
    let withdrawal: CancellationSignal?
    let retryPolicy: EventSystem.RetryPolicy?

    private init(withdrawal: CancellationSignal?, retryPolicy: EventSystem.RetryPolicy?) {
        self.withdrawal = withdrawal
        self.retryPolicy = retryPolicy
    }

    /// The box holding both, or `nil` when both are `nil`.
    static func make(withdrawal: CancellationSignal?, retryPolicy: EventSystem.RetryPolicy?) -> RareOptions? {
        guard withdrawal != nil || retryPolicy != nil else { return nil }
        return RareOptions(withdrawal: withdrawal, retryPolicy: retryPolicy)
    }
}

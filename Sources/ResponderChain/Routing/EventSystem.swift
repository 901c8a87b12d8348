/// The world a chain's events live in: its tracer, its dead-letter sink, its posting limit, and
/// the queues of the events posted through it.
///
/// An event system does not route (each send carries its event hop by hop itself); it
/// configures what happens around the routing, and it owns the posted events until they end,
/// which is why it is what you shut down (``shutDown(gracePeriod:)``).
///
/// Configure the process-wide system once, at start-up, before the first event is sent:
///
/// ```swift
/// try EventSystem.bootstrap(
///     EventSystem(tracer: PrintingTracer(), deadLetters: DeadLetter.Sink { print($0) }))
/// ```
///
/// Every responder uses it unless it names another (``Responder/eventSystem``); views,
/// controllers and windows use their `Application`'s. A chain of actors that needs its own
/// system names it once, in a protocol its types share:
///
/// ```swift
/// extension EventSystem {
///     static let checkout = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 256))
/// }
/// protocol CheckoutResponder: Responder {}
/// extension CheckoutResponder {
///     nonisolated var eventSystem: EventSystem { .checkout }
/// }
/// ```
///
/// A send uses the system of the responder it is sent from (a relay's: its entry's), read once
/// when the send starts; ``SendOptions`` can replace its tracer or dead-letter sink for one send.
public final class EventSystem: Sendable {
    /// The tracer every send through this system reports to, unless the send names its own.
    public let tracer: (any Tracer)?
    /// Where unhandled, interrupted and rejected events go, unless the send names its own sink.
    public let deadLetters: DeadLetter.Sink?
    /// How many posted events this system holds at once, and what `post` does when it is full.
    public let postingLimit: EventSystem.PostingLimit
    /// Whether sends through this system run a capture pass before they bubble (see
    /// ``EventContext/Phase``).
    ///
    /// Capture reads every `next` link up to the root before the first hop, so a system runs it
    /// only when asked: `EventSystem(runsCapturePhase: true)`. A responder with
    /// capture handlers reached by a send of a system that does not run the pass ends that send
    /// ``Outcome/failed(_:)`` at its hop with a ``ResponderChainError``
    /// (``ResponderChainError/Code/capturePhaseDisabled``), before any of its handlers runs: a
    /// capture handler is never skipped silently.
    public let runsCapturePhase: Bool
    /// The middleware every hop of every send through this system runs inside, outermost first
    /// (see ``HopMiddleware``).
    public let middleware: [any HopMiddleware]
    /// How deep a send through this system may be nested in the handlers of other sends: a
    /// handler that forwards its event (through a ``Relay`` or a link to another chain), whose
    /// handler there forwards it again, and so on. A send made deeper ends
    /// ``Outcome/rejected(_:)`` with ``Outcome/Rejection/Reason/forwardingLimitReached(limit:)``
    /// before its first hop. 64 by default. A post made inside a handler counts as a send made
    /// there: its delivery is nested one level deeper, and a post beyond the limit ends rejected
    /// the same way.
    ///
    /// It is the last line of defence: a forwarding loop (the event coming back to a responder
    /// whose handler is still forwarding it) ends ``Outcome/cycleDetected(_:)`` where it closes,
    /// long before, when each forward is made in its handler's own task. A loop through other
    /// tasks (`async let`, a task group, `Task {}`) ends here; one through `Task.detached` is
    /// seen by neither, and ends only with a deadline the forwards carry over.
    public let forwardingLimit: Int

    /// The default ``forwardingLimit``.
    public static let defaultForwardingLimit = 64

    /// The clock every timer of this system reads: deadlines and timeouts of sends and posts, the
    /// shutdown's grace period, the window layer's gesture timers, the integrations' timeouts.
    /// `ContinuousClock` unless the system was made with another (a test's manual clock).
    public let clock: any Clock<Duration>
    /// The timers on ``clock``.
    package let timers: any TimerScheduler

    /// The per-sender queues of the events posted through this system.
    let postOffice: PostOffice
    /// Where posted events are kept (see ``Storage``).
    public let storage: Storage
    /// Which posts are tried again (see ``RetryPolicies``); `nil` when none is.
    let retryPolicies: RetryPolicies?
    /// The names stored posts give their entry responders (``register(_:as:)``).
    let entries = Locked(EntryNames())
    /// The outcome and dead-letter streams open on this system.
    let observers: EventObservers
    /// How ``tracer`` binds to a send, decided once; `nil` without a tracer.
    let traceBinder: TraceBinder?

    /// A system; with no arguments, the configuration an unbootstrapped ``default`` has.
    ///
    /// - Parameters:
    ///   - tracer: The tracer of every send through the system, unless a send names its own.
    ///   - deadLetters: Where events that go to dead letters are given, unless a send names its
    ///     own sink.
    ///   - postingLimit: How many posted events the system holds at once.
    ///   - runsCapturePhase: Whether sends run a capture pass before they bubble; off by default.
    ///   - middleware: Code around every hop, outermost first.
    ///   - forwardingLimit: How deep a send may be nested in the handlers of other sends; at
    ///     least 1 (a smaller number stops the program with a message naming it).
    ///   - clock: The clock every timer of the system reads (see ``clock``); `ContinuousClock`
    ///     by default. A test gives its manual clock, and time moves only when the test says.
    ///   - storage: Where posted events are kept: in memory (the default), or in a
    ///     ``EventSystem/PostStore`` that makes them outlive the process (see ``Storage``).
    ///   - retryPolicies: Which posts are tried again when they do not end handled, how often
    ///     and when (see ``RetryPolicies``); none by default.
    public init(
        tracer: (any Tracer)? = nil,
        deadLetters: DeadLetter.Sink? = nil,
        postingLimit: EventSystem.PostingLimit = .default,
        runsCapturePhase: Bool = false,
        middleware: [any HopMiddleware] = [],
        forwardingLimit: Int = EventSystem.defaultForwardingLimit,
        clock: any Clock<Duration> = ContinuousClock(),
        storage: Storage = .memory,
        retryPolicies: RetryPolicies = .none
    ) {
        precondition(forwardingLimit >= 1, "forwardingLimit must be at least 1, not \(forwardingLimit)")
        self.forwardingLimit = forwardingLimit
        self.tracer = tracer
        self.traceBinder = tracer.map(TraceBinder.init)
        self.deadLetters = deadLetters
        self.postingLimit = postingLimit
        self.runsCapturePhase = runsCapturePhase
        self.middleware = middleware
        let observers = EventObservers()
        self.observers = observers
        self.postOffice = PostOffice(limit: postingLimit, observers: observers, storage: storage)
        self.clock = clock
        self.timers = (clock as? any TimerScheduler) ?? ClockTimers(clock)
        self.storage = storage
        self.retryPolicies = retryPolicies.retriesNothing ? nil : retryPolicies
    }

    /// The current instant of the system's ``clock``: where deadlines count from.
    ///
    /// ```swift
    /// let options = SendOptions(deadline: system.now + .seconds(2))
    /// ```
    public var now: Instant { timers.now }

    /// The number of posted events accepted and not yet finished (queued or being delivered).
    public var outstandingPosts: Int { postOffice.statistics.outstanding }

    /// The largest ``outstandingPosts`` seen since the system was created: never more than
    /// ``EventSystem/PostingLimit/maxOutstanding``, plus the posts made by handlers during delivery.
    public var peakOutstandingPosts: Int { postOffice.statistics.peak }

    /// The number of posters waiting for room right now (policy ``EventSystem/PostingLimit/Policy/suspend``).
    public var suspendedPosters: Int { postOffice.statistics.suspended }

    /// Whether ``shutDown(gracePeriod:)`` has been called: the system accepts no more posts.
    public var isShuttingDown: Bool { postOffice.isShuttingDown }

    /// Shuts the system's posting down gracefully, and returns what became of the posts it held.
    ///
    /// 1. From the call on, every new post is refused: its ticket ends
    ///    ``Outcome/rejected(_:)`` with reason ``Outcome/Rejection/Reason/shuttingDown`` (traced
    ///    and dead-lettered like any rejection). Posters waiting for room are refused the same
    ///    way. Posts made by handlers during the drain are refused too.
    /// 2. The posts already accepted go on being delivered, in order, until `gracePeriod` has
    ///    passed on the system's ``clock``.
    /// 3. Then the rest end: queued posts at once, ``Outcome/cancelled(_:)`` before hop 1; posts
    ///    being delivered are cancelled like a cancelled ticket (a parked handler wakes with
    ///    `Task.isCancelled`) and end ``Outcome/cancelled(_:)``. Their reason is
    ///    ``Outcome/Stop/Reason/shutdown`` and they go to the dead-letter sink.
    ///
    /// Returns once every post has its outcome, with the counts; just before it returns, the
    /// system's observation streams finish (``observeOutcomes(buffering:)``), every post's
    /// outcome in them. A handler that ignores cancellation delays the return until it finishes:
    /// the system cannot take an answer back from a handler still running. Cancelling the
    /// calling task ends the grace period at once.
    /// Awaited sends are not affected: they run in their callers' tasks, which own them.
    ///
    /// **From inside a delivery.** A posted event's handler (or its wrapper, tracer or
    /// dead-letter sink) may call it, a `Quit` event that stops its service: the drain does not
    /// wait for that post, which waits for the drain, and the posts its sender queued behind it,
    /// which cannot run before it ends, end early. The call returns the report with that post
    /// counted ``EventSystem/ShutdownReport/inProgress``; the post ends when its handler returns, and the
    /// observation streams finish after it.
    ///
    /// Calling it again (or concurrently) waits for the same drain and returns the same report:
    /// it is made once.
    ///
    /// ```swift
    /// let report = await system.shutDown(gracePeriod: .seconds(5))
    /// print(report)   // 12 finished, 0 ended early, 3 refused
    /// ```
    @discardableResult
    public nonisolated(nonsending) func shutDown(gracePeriod: Duration) async -> EventSystem.ShutdownReport {
        await postOffice.shutDown(until: timers.now + gracePeriod, system: self)
    }

    /// Returns once ``shutDown(gracePeriod:)`` has been called (at once if it has been): from
    /// then on the system refuses new posts.
    ///
    /// ```swift
    /// try await system.waitUntilShuttingDown()
    /// logger.info("draining")
    /// ```
    ///
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    public nonisolated(nonsending) func waitUntilShuttingDown() async throws(CancellationError) {
        try await postOffice.waitUntilShuttingDown()
    }
}

public import ResponderChain
public import Testing

/// An event system on a ``ManualClock`` that records everything it does a test could forget to
/// check, and fails the test for what it leaves unasserted.
///
/// A store owns its ``system`` and its ``clock``: build the chain under test on `store.system`,
/// send and post through it, move time with ``advance(by:)``, assert what came of it, and end
/// with ``finish(runningClock:sourceLocation:)``:
///
/// ```swift
/// @Test func anOrderThatIsOutOfStockIsDeadLettered() async {
///     let store = TestStore()
///     let service = OrderService(system: store.system, stock: [:])
///
///     await service.checkout.post(PlaceOrder(sku: "A-1"))
///     await store.receiveDeadLetter(.failed, of: PlaceOrder.self)
///
///     await store.finish()
/// }
/// ```
///
/// **What it records.** Every ending of a send or post through its system (its outcome, and its
/// dead letter when it goes there), every shutdown it began (``shutDown(gracePeriod:sourceLocation:)``) and its
/// report, and the observation streams a test opened through it (``observeOutcomes(buffering:)``).
/// At ``finish(runningClock:sourceLocation:)`` it checks what is still under way: timers still
/// scheduled on its clock, posts still outstanding, posters waiting for room.
///
/// **What asserts it.** One ending is one fact: receiving its outcome
/// (``receiveOutcome(_:of:within:sourceLocation:)``, ``receiveOutcome(of:within:sourceLocation:)``)
/// or its dead letter (``receiveDeadLetter(_:of:within:sourceLocation:)``) asserts it, and so does
/// sending it through ``send(_:from:options:sourceLocation:)``, which returns the outcome for the
/// test to check. Each `receive` takes the first ending recorded that matches and that it has not
/// taken yet, in the order the store recorded them, and waits for one to come (bounded in real
/// time, ``waitLimit``) when none has: a test never sleeps.
///
/// **Exhaustive by default.** ``finish(runningClock:sourceLocation:)`` records an `Issue` for each
/// kind of thing left unasserted or under way, naming each one:
/// `1 dead letter not asserted: PlaceOrder, failed at Pricing (PricingError.outOfStock)`,
/// `1 timer still scheduled: the deadline of PlaceOrder (event #12) at 30.0 seconds`. Set
/// ``exhaustivity`` to ``Exhaustivity/off`` to check only what the test asserts.
///
/// **Sends elsewhere.** The store sees only its own system: a responder that uses another system
/// (or a send with its own dead-letter sink, whose letters still reach the store's streams) is
/// out of its sight, except through the outcome streams of its system.
///
/// The store opens two observation streams on its system for its own records (they count in
/// `EventSystem._openObservationStreams`).
public final class TestStore: Sendable {
    /// The clock of ``system``: time moves only when the test moves it (``advance(by:)``).
    public let clock: ManualClock
    /// The event system the store records: build the chain under test on it.
    public let system: EventSystem

    let recorder: TestStoreRecorder
    let state = Locked(TestStoreState())

    /// A store with a new system on a new manual clock at zero.
    ///
    /// The parameters are those of `EventSystem.init`, less the clock (the store's) and the
    /// dead-letter sink (the store records the dead letters itself).
    ///
    /// - Parameters:
    ///   - exhaustivity: Whether ``finish(runningClock:sourceLocation:)`` fails the test for what
    ///     it did not assert; ``Exhaustivity/on`` by default.
    ///   - tracer: The tracer of every send through the system.
    ///   - postingLimit: How many posted events the system holds at once.
    ///   - runsCapturePhase: Whether sends run a capture pass before they bubble.
    ///   - middleware: Code around every hop, outermost first.
    ///   - forwardingLimit: How deep a send may be nested in the handlers of other sends.
    ///   - retryPolicies: Which posts are tried again, on the store's clock.
    public init(
        exhaustivity: Exhaustivity = .on,
        tracer: (any Tracer)? = nil,
        postingLimit: EventSystem.PostingLimit = .default,
        runsCapturePhase: Bool = false,
        middleware: [any HopMiddleware] = [],
        forwardingLimit: Int = EventSystem.defaultForwardingLimit,
        retryPolicies: EventSystem.RetryPolicies = .none
    ) {
        let clock = ManualClock()
        let system = EventSystem(
            tracer: tracer, postingLimit: postingLimit, runsCapturePhase: runsCapturePhase,
            middleware: middleware, forwardingLimit: forwardingLimit, clock: clock,
            retryPolicies: retryPolicies)
        self.clock = clock
        self.system = system
        self.recorder = TestStoreRecorder(system: system)
        state.withLock { $0.exhaustivity = exhaustivity }
    }

    /// Whether ``finish(runningClock:sourceLocation:)`` fails the test for what it did not
    /// assert. Set it at any time before `finish`.
    public var exhaustivity: Exhaustivity {
        get { state.withLock { $0.exhaustivity } }
        set { state.withLock { $0.exhaustivity = newValue } }
    }

    /// How long, in real time, a `receive` waits for what it expects to come before it records an
    /// issue: 10 seconds unless set. Only a test that fails waits that long.
    public var waitLimit: Duration {
        get { state.withLock { $0.waitLimit } }
        set { state.withLock { $0.waitLimit = newValue } }
    }

    /// Everything the store recorded, in order, in words: each ending (`outcome #1 PlaceOrder from
    /// checkout: handled by Orders after 2 hops`), each dead letter, each step of the clock and
    /// the timers due at it, each shutdown report.
    ///
    /// Event identifiers are numbered from 1 in the order the store first saw them, so that one
    /// scenario gives the same trace on every run of one process.
    public var trace: [String] {
        get async { await recorder.syncedTrace() }
    }

    /// Sends `event` from `responder` and returns its outcome, which this asserts: check it with
    /// `#expect`. Its dead letter, if it goes there, is asserted with it.
    ///
    /// The send runs in the calling task. If it waits for the clock (a deadline, a handler
    /// sleeping on it), advance the clock from another task, or post the event instead and
    /// ``receiveOutcome(_:of:within:sourceLocation:)``.
    ///
    /// - Parameters:
    ///   - event: The event to send.
    ///   - responder: Where it starts; a responder of ``system`` (an issue is recorded if not).
    ///   - options: Its send options.
    ///   - sourceLocation: Where an issue points; leave the default.
    @discardableResult
    public nonisolated(nonsending) func send(
        _ event: some Event,
        from responder: some Responder,
        options: SendOptions = .default,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Outcome {
        if await responder.eventSystem !== system {
            Issue.record(
                "\(event.traceName) was sent from \(ResponderID(responder)), a responder of another event system: the store does not see its outcome",
                sourceLocation: sourceLocation)
        }
        let outcome = await responder.send(event, options: options)
        await recorder.assertBySend(outcome.eventID)
        return outcome
    }
}

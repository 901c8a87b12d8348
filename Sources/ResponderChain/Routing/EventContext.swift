/// What a handler knows about the event it is handling, and where it adds information.
///
/// One context travels with each send, hop by hop. Handlers receive it `inout`:
///
/// ```swift
/// $0.on(ItemAdded.self) { order, event, context in
///     if context.isCancelled { return .pass }    // the sender gave up
///     order.items.append(event.sku)
///     context.info[OrderID.self] = order.id      // seen by every hop above
///     return .handledAndContinue
/// }
/// ```
public struct EventContext: Sendable {
    /// Information added by the hops so far. Set values here to pass them up the chain.
    public var info: EventInfo
    /// Who sent the event: a responder, or a ``Relay``.
    public let source: EventSource
    /// The correlation identifier of this send.
    public let eventID: EventID
    /// The number of the current hop: 1 at the first responder visited. Capture hops and
    /// bubble hops are numbered in one sequence.
    public internal(set) var hop: Int
    /// The pass the current hop belongs to: ``EventContext/Phase/capture`` while the ancestors' capture
    /// handlers run, ``EventContext/Phase/bubble`` from the first responder up.
    public internal(set) var phase: EventContext.Phase

    /// How handlers are found for the event: computed once per send.
    @usableFromInline
    let key: EventKey
    /// The tracer for this send, bound to the context it captured, if any.
    @usableFromInline
    let trace: (any ActiveTrace)?
    /// The middleware of the send's system (``HopMiddleware``), outermost first.
    @usableFromInline
    let middleware: [any HopMiddleware]
    /// Whether hops run with nothing around the handlers: no tracer and no system middleware.
    /// Computed once per send, so that a hop checks one flag.
    @usableFromInline
    let isPlain: Bool
    /// Whether the send's system runs a capture pass (``EventSystem/runsCapturePhase``).
    let runsCapturePhase: Bool
    /// How deep the send may be nested in handlers' sends (``EventSystem/forwardingLimit``).
    let forwardingLimit: Int
    /// The number of capture hops that ran (set when the capture pass ends).
    var captureHops = 0
    /// The stop signal of a posted, withdrawable or deadline-bound send; `nil` for the others.
    var signal: CancellationSignal? { stops?.signal }
    /// The send's deadline on its event system's clock, if any: forward it with the event
    /// (`SendOptions(deadline: context.deadline)`) to a responder of a system on the same clock.
    public var deadline: EventSystem.Instant? { clock?.deadline }
    /// What reads the clock in this send (its deadline's checks, its tracer's hop durations);
    /// `nil` for an untraced send without a deadline.
    var clock: SendClock? { stops?.clock }
    /// The send's signal and clock, `nil` when it has neither (see ``SendStops``).
    let stops: SendStops?

    /// The time left before the send's ``deadline`` (negative once it has passed), on its
    /// system's clock; `nil` without a deadline. Give it as a ``SendOptions/timeout`` to carry the
    /// deadline to a system on another clock, or to another process.
    public var timeLeft: Duration? {
        guard let clock, let deadline = clock.deadline else { return nil }
        return clock.timers.now.duration(to: deadline)
    }
    /// What the current hop came to: set by the hop (``hop(at:event:)``), read by the route.
    @usableFromInline
    var hopResult = HopResult.decided(.pass)
    /// The owners whose tables are running their proxies at this hop, outermost first (empty
    /// unless a proxy runs): what ``ResponderChainError`` (``ResponderChainError/Code/proxyCycle``) is detected with.
    var ownersRunningProxies: [ObjectIdentifier] = []

    init(
        key: EventKey,
        source: EventSource,
        info: EventInfo = EventInfo(),
        trace: (any ActiveTrace)?,
        signal: CancellationSignal?,
        clock: SendClock?,
        eventID: EventID = EventID.next(),
        middleware: [any HopMiddleware] = [],
        runsCapturePhase: Bool = false,
        forwardingLimit: Int = EventSystem.defaultForwardingLimit
    ) {
        self.info = info
        self.source = source
        self.eventID = eventID
        self.hop = 0
        self.phase = .bubble
        self.key = key
        self.trace = trace
        self.middleware = middleware
        self.isPlain = trace == nil && middleware.isEmpty
        self.runsCapturePhase = runsCapturePhase
        self.forwardingLimit = forwardingLimit
        self.stops = signal == nil && clock == nil ? nil : SendStops(signal: signal, clock: clock)
    }

    /// Whether the send has been cancelled: its task was cancelled, its ticket was cancelled, or
    /// its deadline has passed. Handlers that do long work should check it and stop early.
    public var isCancelled: Bool {
        stopReason != nil
    }

    /// Throws `CancellationError` if ``isCancelled``. A handler that throws it ends the send
    /// ``Outcome/cancelled(_:)`` (or ``Outcome/timedOut(_:)``), never ``Outcome/failed(_:)``.
    public func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    /// Why the send must stop, or `nil` to go on.
    ///
    /// A passed deadline wins over everything else. A signal (a ticket, a shutdown, the
    /// deadline's timer) names its own reason. A cancelled task is read last, and then the signal
    /// and the clock once more: the deadline's timer sets the signal *before* it cancels the
    /// route's task, so a cancellation seen after the clock was first read may still be the
    /// deadline's, and is reported as such.
    ///
    /// Inlined, reading only ``stops``: a call on the whole context would copy it (about 240
    /// bytes) at every hop, since the route holds it `inout` across the hop's `await`.
    @inline(__always)
    var stopReason: Outcome.Stop.Reason? {
        guard let stops else { return Task.isCancelled ? .taskCancelled : nil }
        return Self.stopReason(of: stops)
    }

    /// ``stopReason`` for a send with a signal or a clock.
    static func stopReason(of stops: SendStops) -> Outcome.Stop.Reason? {
        if stops.deadlineHasPassed { return .deadlinePassed }
        if let reason = stops.signal?.reason { return Outcome.Stop.Reason(reason) }
        guard Task.isCancelled else { return nil }
        if let reason = stops.signal?.reason { return Outcome.Stop.Reason(reason) }
        if stops.deadlineHasPassed { return .deadlinePassed }
        return .taskCancelled
    }
}

/// What can stop a send besides its task, and what reads its clock: its signal and its clock,
/// held as one optional value in ``EventContext``.
///
/// Kept together so that a send with neither (an untraced send with no deadline, not posted)
/// builds and destroys its context without a refcounting call for them: an optional of a value
/// with two references is destroyed by checking its case, where an optional reference alone
/// (or a value with one reference) is released even when it is `nil` (measured: one release
/// per send more in the thresholds).
struct SendStops: Sendable {
    /// The stop signal, if any.
    let signal: CancellationSignal?
    /// The clock, if any.
    let clock: SendClock?

    /// Whether the send's deadline has passed by its system's clock.
    var deadlineHasPassed: Bool {
        guard let clock, let deadline = clock.deadline else { return false }
        return clock.timers.hasPassed(deadline)
    }
}

/// The clock of a send that reads one: its system's timers, and its deadline if it has one.
struct SendClock: Sendable {
    /// The timers of the send's event system.
    let timers: any TimerScheduler
    /// The send's deadline, if any.
    let deadline: EventSystem.Instant?
}

/// What a handler knows about the event it is handling, and where it adds information.
///
/// One context travels with each send, hop by hop. Handlers receive it `inout`:
///
/// ```swift
/// $0.on(ItemAdded.self) { order, event, context in
///     context.info[OrderID.self] = order.id      // seen by every hop above
///     if context.isCancelled { return .pass }    // the sender gave up
///     return .handledAndContinue
/// }
/// ```
public struct EventContext: Sendable {
    /// Information added by the hops so far. Set values here to pass them up the chain.
    public var info: EventInfo
    /// Who sent the event.
    public let source: EventSource
    /// The correlation identifier of this send.
    public let eventID: EventID
    /// The number of the current hop: 1 at the first responder visited.
    public internal(set) var hop: Int

    /// How handlers are found for the event.
    @usableFromInline
    let key: EventKey
    /// The tracer for this send, bound to the context it captured, if any.
    let trace: (any ActiveTrace)?
    /// Whether ``trace`` is set, kept as a flag so that the per-hop check copies no existential.
    @usableFromInline
    let isTraced: Bool
    /// Set when a ticket cancels a posted event.
    let signal: CancellationSignal?
    /// The send's deadline, if any.
    public let deadline: ContinuousClock.Instant?
    /// The owners whose tables are running their proxies at this hop, outermost first (empty
    /// unless a proxy runs): what ``ProxyCycle`` is detected with.
    var ownersRunningProxies: [ObjectIdentifier] = []

    init(
        key: EventKey,
        source: EventSource,
        info: EventInfo = EventInfo(),
        trace: (any ActiveTrace)?,
        signal: CancellationSignal?,
        deadline: ContinuousClock.Instant?,
        eventID: EventID = EventID.next()
    ) {
        self.info = info
        self.source = source
        self.eventID = eventID
        self.hop = 0
        self.key = key
        self.trace = trace
        self.isTraced = trace != nil
        self.signal = signal
        self.deadline = deadline
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
    var stopReason: Outcome.Stop.Reason? {
        if let deadline, ContinuousClock.now >= deadline { return .deadlinePassed }
        if let reason = signal?.reason { return Outcome.Stop.Reason(reason) }
        guard Task.isCancelled else { return nil }
        if let reason = signal?.reason { return Outcome.Stop.Reason(reason) }
        if let deadline, ContinuousClock.now >= deadline { return .deadlinePassed }
        return .taskCancelled
    }

    /// Runs one hop at `responder`: its ``Responder/handle(_:context:)`` (inside the tracer's
    /// scope, if a tracer is installed), then a read of its ``Responder/next``. Every kind of
    /// responder's `_visit` calls this on the responder's isolation.
    ///
    /// For a responder that ``Responder/handlesOneEventAtATime``, the hop first waits until no
    /// other event is being handled there (see Docs/Semantics.md, "Reentrancy"). The lock covers
    /// the handlers only: it is released as soon as they return, before `next` is read, so no
    /// task the handler started can pass through it after the handler is done.
    @usableFromInline
    nonisolated(nonsending) mutating func visit(_ responder: some Responder, event: any Event)
        async -> _Visit
    {
        guard responder.handlesOneEventAtATime else {
            return _Visit(result: await handleNow(responder, event: event), next: await responder.next)
        }
        var context = self
        let result: Result<Disposition, any Error>
        do {
            result = try await ExclusiveHandling.shared.withLock(of: ObjectIdentifier(responder)) {
                await context.handleNow(responder, event: event)
            }
        } catch {
            // Stopped while waiting for the responder: the hop never began.
            return _Visit(result: .failure(HopNotEntered()), next: nil)
        }
        self = context
        return _Visit(result: result, next: await responder.next)
    }

    /// Runs `responder`'s handlers, inside the tracer's scope when a tracer is installed.
    private nonisolated(nonsending) mutating func handleNow(_ responder: some Responder, event: any Event)
        async -> Result<Disposition, any Error>
    {
        guard let trace else { return await handleDirectly(responder, event: event) }
        return await handleTraced(responder, event: event, trace: trace, isolation: #isolation)
    }

    /// Whether a hop at `responder` can take the direct path: no tracer to report to and no
    /// one-at-a-time lock to take.
    @inlinable
    func canVisitDirectly(_ responder: some Responder) -> Bool {
        !isTraced && !responder.handlesOneEventAtATime
    }

    /// The hop with nothing around it: the handlers, then a read of `next`. Inlinable, so that
    /// the default hop of a responder type is specialized for it where the type is declared.
    @inlinable
    nonisolated(nonsending) mutating func visitDirectly(_ responder: some Responder, event: any Event)
        async -> _Visit
    {
        _Visit(result: await handleDirectly(responder, event: event), next: await responder.next)
    }

    /// The handlers with nothing around them, their error caught.
    @inlinable
    nonisolated(nonsending) mutating func handleDirectly(_ responder: some Responder, event: any Event)
        async -> Result<Disposition, any Error>
    {
        do {
            return .success(try await responder.handle(event, context: &self))
        } catch {
            return .failure(error)
        }
    }
}

/// The result of one hop: the handlers' decision (or the error one threw) and the responder's
/// ``Responder/next`` as read when the event left it. Machinery, returned by
/// ``Responder/_visit(_:context:)``; nothing to build or read yourself.
public struct _Visit: Sendable {
    /// What the responder's handlers decided, or the error a handler threw.
    let result: Result<Disposition, any Error>
    /// The next responder, read after the handlers ran.
    let next: (any Responder)?

    @usableFromInline
    init(result: Result<Disposition, any Error>, next: (any Responder)?) {
        self.result = result
        self.next = next
    }
}

/// How a strategy table finds handlers for an event: by type, or by name for ``NamedEvent``.
@usableFromInline
enum EventKey: Hashable, Sendable {
    case type(ObjectIdentifier)
    case name(EventName)

    init(of event: any Event) {
        // Compare metatypes first: most events are typed, and a dynamic cast costs far more.
        if Swift.type(of: event) == NamedEvent.self, let named = event as? NamedEvent {
            self = .name(named.name)
        } else {
            self = .type(ObjectIdentifier(Swift.type(of: event)))
        }
    }
}

/// What a hop reports when the event was stopped before the hop began: it was cancelled, or timed
/// out, while it waited for a one-at-a-time responder. The system reports the stop *before* that
/// hop and does not count it.
struct HopNotEntered: Error {}

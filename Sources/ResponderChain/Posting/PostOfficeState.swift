/// The rules behind ``PostOffice``, as three machines a reader can hold one at a time, composed
/// here:
///
/// - ``AdmissionStateMachine``: the count of outstanding posts against the
///   ``EventSystem/PostingLimit``, and the posters waiting for room;
/// - ``LanesStateMachine``: the per-lane queues ("lanes"), the post each lane delivers, the
///   posts that released their lanes;
/// - ``ShutdownStateMachine``: the tasks waiting for the shutdown, the drain, the report.
///
/// ```
///  post ──admission: room?──▶ lanes: pending ──(lane idle: start delivery)──▶ in flight ──▶ ended
///    │ no room: reject, or wait ──────(room freed, first come first served)──▲        │
///    │ shutting down: refused (counted by the shutdown)        admission: room freed ◀─┘
///                                                              shutdown: counted, drained?
///  open ──shutdown()──▶ draining ──makeReport()──▶ reported ──(nothing outstanding)──▶ closed
///                         │ grace period over: endRemaining()
/// ```
///
/// A pure value: it never runs user code, starts tasks or resumes continuations. Each transition
/// asks the machines concerned, in an order that matters (a post's room is freed, and waiting
/// posters queued, before its lane's next step is taken; the drain is checked after both), and
/// returns what its caller (``PostOffice``, which holds it in a `Locked`) must do once outside
/// the lock: deliver a post, start a lane's delivery task, resume the continuations handed back,
/// end the posts taken out of their queues, cancel deliveries.
///
/// A task that must wait takes an identity from the transition that decided it
/// (``PostAction/mustWait(_:)``, ``ShutdownStateMachine/ShutdownWait/mustWait(_:)``,
/// ``ShutdownStateMachine/DrainWait/mustWait(_:)``), then hands its continuation to the
/// matching `suspend…` transition, which either keeps it or answers at once (room appeared, the
/// shutdown began, the drain completed, or it was cancelled meanwhile). Whoever cancels a waiter
/// takes its continuation back through the matching `cancel…` transition.
struct PostOfficeState {
    typealias WaitingPost = AdmissionStateMachine.WaitingPost
    typealias Admission = AdmissionStateMachine.Admission
    typealias DeliveryStep = LanesStateMachine.DeliveryStep
    typealias LaneRelease = LanesStateMachine.LaneRelease
    typealias TicketCancellation = LanesStateMachine.TicketCancellation
    typealias Remaining = LanesStateMachine.Remaining
    typealias Phase = ShutdownStateMachine.Phase
    typealias ShutdownWait = ShutdownStateMachine.ShutdownWait
    typealias DrainWait = ShutdownStateMachine.DrainWait

    /// What ``post(_:lane:overLimit:)`` decided.
    enum PostAction: Equatable {
        /// Queued; when `startDelivery`, the lane was idle and the caller must start its task.
        case accepted(startDelivery: Bool)
        /// Not accepted, for this reason: end the post rejected.
        case rejected(Outcome.Rejection.Reason)
        /// Full, and the policy suspends: suspend with this identity
        /// (``suspendPoster(_:_:continuation:)``).
        case mustWait(WaiterID)
    }

    /// What ``suspendPoster(_:_:continuation:)`` did.
    enum PosterSuspension: Equatable {
        /// The poster waits in the room line.
        case suspended
        /// Resume the poster at once with this admission; when `startDelivery`, its post was
        /// queued on an idle lane, whose task the caller must start.
        case resume(Admission, startDelivery: Bool)
    }

    /// What a transition freed: posters admitted (resume them: their posts are queued), lanes
    /// whose delivery must start (on the isolation of the admitted poster that queued there),
    /// the tasks waiting for the drain, if it is complete, and whether the office has just
    /// closed (nothing is outstanding any more: finish the observation streams).
    struct Released {
        var admitted: [CheckedContinuation<Admission, Never>] = []
        var lanesToStart: [(lane: LaneKey, isolation: (any Actor)?)] = []
        var drainWaiters: [CheckedContinuation<Void, Never>] = []
        var closed = false
    }

    /// What ``shutdown(from:ticket:)`` found.
    struct ShutdownStart {
        /// Posters that were waiting for room: resume them as refused.
        var refused: [CheckedContinuation<Admission, Never>] = []
        /// Tasks waiting for the shutdown to begin: resume them with `true`.
        var began: [CheckedContinuation<Bool, Never>] = []
        /// What the start freed: the drain's waiters, if nothing the drain waits for is
        /// outstanding, and whether the office closed.
        var released = Released()
    }

    private var admission: AdmissionStateMachine
    private var lanes = LanesStateMachine()
    private var shutdownState = ShutdownStateMachine()

    init(limit: EventSystem.PostingLimit) {
        admission = AdmissionStateMachine(limit: limit)
    }

    // MARK: Reading

    var limit: EventSystem.PostingLimit { admission.limit }

    /// Where the office is in its life.
    var phase: Phase { shutdownState.phase }

    /// Whether the office is shutting down or has shut down.
    var isShuttingDown: Bool { !shutdownState.isRunning }

    /// The posts queued or in flight, the most there ever were, and the posters waiting for room.
    var statistics: (outstanding: Int, peak: Int, suspended: Int) {
        (admission.outstanding, admission.peak, admission.suspendedCount)
    }

    var outstanding: Int { admission.outstanding }
    var peak: Int { admission.peak }

    /// Whether the post `id` is being delivered: in flight on its lane, or detached from it, its
    /// ticket not yet holding its outcome (which its streams may have already).
    func isDelivering(_ id: EventID) -> Bool { lanes.isDelivering(id) }

    /// Whether everything the drain waits for has ended: the office is shutting down and the only
    /// posts outstanding are those the shutdown's callers hold.
    var isDrained: Bool { shutdownState.isDrained(drainCount) }

    /// The counts so far, before the report is made (for a call made from inside the shutdown's
    /// own endings), or the report.
    var countsSoFar: EventSystem.ShutdownReport { shutdownState.countsSoFar }

    // MARK: Posting

    /// Accepts `post` into `lane` if there is room (or `overLimit`: a post made by a running
    /// delivery's handlers), refuses it while shutting down.
    mutating func post(_ post: PendingPost, lane: LaneKey, overLimit: Bool) -> PostAction {
        switch admission.post(overLimit: overLimit) {
        case .accept:
            return .accepted(startDelivery: lanes.queue(post, lane: lane) == .startDelivery)
        case .rejectLimitReached:
            return .rejected(.limitReached(maxOutstanding: admission.limit.maxOutstanding))
        case .suspend(let id):
            return .mustWait(id)
        case .refuse:
            shutdownState.refuse()
            return .rejected(.shuttingDown)
        }
    }

    /// Suspends the poster `id` (made by ``post(_:lane:overLimit:)``) with `continuation`, unless
    /// it was cancelled meanwhile, room appeared (its post is queued then), or the shutdown began
    /// (it is refused).
    mutating func suspendPoster(
        _ id: WaiterID,
        _ waiting: WaitingPost,
        continuation: CheckedContinuation<Admission, Never>
    ) -> PosterSuspension {
        switch admission.suspendPoster(id, waiting, continuation: continuation) {
        case .suspended:
            return .suspended
        case .admit:
            let start = lanes.queue(waiting.post, lane: waiting.lane) == .startDelivery
            return .resume(.accepted, startDelivery: start)
        case .resumeCancelled:
            return .resume(.cancelled, startDelivery: false)
        case .refuse:
            shutdownState.refuse()
            return .resume(.shuttingDown, startDelivery: false)
        }
    }

    /// Cancels the poster `id`: the continuation to resume as cancelled, if it was suspended;
    /// otherwise it is remembered as cancelled for when it arrives.
    mutating func cancelPoster(_ id: WaiterID) -> CheckedContinuation<Admission, Never>? {
        admission.cancelPoster(id)
    }

    /// Records the task delivering `lane`.
    mutating func attach(_ task: Task<Void, Never>, to lane: LaneKey) {
        lanes.attach(task, to: lane)
    }

    // MARK: Delivery

    /// The next step of `lane`'s delivery task, after the post it just delivered (if any) has
    /// ended: `delivered` is its ticket's settlement, so the post stops counting as outstanding
    /// only once its ticket holds its outcome.
    mutating func nextStep(
        lane key: LaneKey,
        after delivered: borrowing TicketState.Settlement?
    ) -> (step: DeliveryStep, released: Released) {
        // Nothing is outstanding once closed: the lane, if its task finds it, is empty.
        if shutdownState.isClosed { return (.finished, Released()) }
        var released = Released()
        let step: DeliveryStep
        // Borrowed, not bound by `if let`: a settlement holds an outcome, which a binding would
        // copy through the optional's generic value witnesses.
        switch delivered {
        case .some(let delivered):
            // A post that released its lane ends without touching it, and its task delivers
            // nothing more.
            let wasDetached = lanes.deliveryEnded(delivered, lane: key) == .endedDetached
            // Its room is freed (admitted posters queued) before the lane's next step is taken,
            // so that a post admitted onto this lane is delivered by this task.
            postEnded(delivered, delivery: (key, wasDetached), into: &released)
            step = wasDetached ? .retire(successor: false) : lanes.nextDeliveryStep(lane: key)
        case .none:
            step = lanes.nextDeliveryStep(lane: key)
        }
        settle(into: &released)
        return (step, released)
    }

    /// A post removed from its queue (by its ticket, by ``endRemaining()``, by
    /// ``takeQueuedBehindCallers()`` or by ``removeQueued(_:lane:)``) has been settled: it stops
    /// counting as outstanding.
    /// Posts of a shared store that no consumer here claimed were kept (see
    /// ``ShutdownStateMachine/keptUnclaimed(_:)``).
    mutating func keptUnclaimed(_ count: Int) {
        shutdownState.keptUnclaimed(count)
    }

    mutating func endedWhileQueued(_ settlement: TicketState.Settlement) -> Released {
        precondition(!shutdownState.isClosed, "a post ended after the office closed")
        var released = Released()
        postEnded(settlement, delivery: nil, into: &released)
        settle(into: &released)
        return released
    }

    // MARK: Cancellation through a ticket

    mutating func cancel(_ ticket: TicketState, lane key: LaneKey) -> TicketCancellation {
        lanes.cancel(ticket, lane: key)
    }

    // MARK: Releasing a lane

    /// Whether `ticket`'s post is the one `lane` is delivering (so not released).
    func isInFlight(_ ticket: TicketState, lane key: LaneKey) -> Bool {
        lanes.isInFlight(ticket, lane: key)
    }

    /// Lets `lane` go on without `ticket`'s post, its post in flight: the post stays outstanding
    /// and goes on in its task to its outcome (``nextStep(lane:after:)`` then ends it without
    /// touching the lane), while the lane's later posts are delivered by a fresh task, as after a
    /// cancelled post. The drain, the limit, ticket cancellation and ``endRemaining()`` still
    /// reach it; ``postAhead(of:lane:)`` no longer sees it.
    mutating func release(_ ticket: TicketState, lane key: LaneKey) -> LaneRelease {
        let release = lanes.release(ticket, lane: key)
        if case .released = release { shutdownState.laneReleased(key, by: ticket) }
        return release
    }

    // MARK: Waiting on yourself

    /// The post in flight on `lane` while `ticket`'s post is queued behind it; `nil` if it is not
    /// queued there (in flight, ended, not yet accepted) or nothing is in flight.
    func postAhead(of ticket: TicketState, lane key: LaneKey) -> TicketState? {
        lanes.postAhead(of: ticket, lane: key)
    }

    /// Removes `ticket`'s post from `lane`'s queue, if it is queued there: settle its ticket,
    /// then call ``endedWhileQueued(_:)`` (it counts as outstanding until then).
    mutating func removeQueued(_ ticket: TicketState, lane key: LaneKey) -> PendingPost? {
        lanes.removeQueued(ticket, lane: key)
    }

    // MARK: Shutdown

    /// Whether the shutdown has begun; if not, the identity to wait for it under.
    mutating func waitForShutdown() -> ShutdownWait {
        shutdownState.waitForShutdown()
    }

    /// Suspends the task `id` (made by ``waitForShutdown()``) until the shutdown begins; the value
    /// to resume it with at once instead: `true` if the shutdown has begun, `false` if the task was
    /// cancelled meanwhile.
    mutating func suspendShutdownWaiter(_ id: WaiterID, continuation: CheckedContinuation<Bool, Never>)
        -> Bool?
    {
        shutdownState.suspendShutdownWaiter(id, continuation: continuation)
    }

    /// Cancels the task `id` waiting for the shutdown: the continuation to resume with `false`,
    /// if it was suspended; otherwise it is remembered as cancelled for when it arrives.
    mutating func cancelShutdownWaiter(_ id: WaiterID) -> CheckedContinuation<Bool, Never>? {
        shutdownState.cancelShutdownWaiter(id)
    }

    /// Whether the drain is complete; if not, the identity to wait for it under. Only once the
    /// shutdown has begun.
    mutating func waitForDrain() -> DrainWait {
        shutdownState.waitForDrain(drainCount)
    }

    /// Suspends the task `id` (made by ``waitForDrain()``) until the drain completes; `true` to
    /// resume it at once instead (it completed meanwhile). The wait ignores cancellation.
    mutating func suspendDrainWaiter(_ id: WaiterID, continuation: CheckedContinuation<Void, Never>)
        -> Bool
    {
        shutdownState.suspendDrainWaiter(id, continuation: continuation, drainCount)
    }

    /// Starts the shutdown: from now on every post is refused; posters waiting for room are
    /// refused too. Calling it again changes nothing, but for `caller`: the lane of a post whose
    /// own delivery calls for the shutdown (its handler, its dead-letter sink), which the drain
    /// then does not wait for (until the report is made). `ticket`, when given, is that post's:
    /// a post that released its lane is not the lane's post in flight, but is still not waited for.
    mutating func shutdown(from caller: LaneKey? = nil, ticket: TicketState? = nil) -> ShutdownStart {
        var start = ShutdownStart()
        if shutdownState.isClosed { return start }
        start.refused = admission.shutDown()
        if case .began(let waiters) = shutdownState.shutDown(
            refused: start.refused.count, caller: caller.flatMap { callerOf(lane: $0, ticket: ticket) })
        {
            start.began = waiters
        }
        settle(into: &start.released)
        return start
    }

    /// Ends the grace period: removes every queued post (each still counts as outstanding until
    /// ``endedWhileQueued(_:)``) and names the posts in flight, whose deliveries must be
    /// stopped; not the callers' own posts, which wait for the shutdown.
    mutating func endRemaining() -> Remaining {
        guard isShuttingDownNow else { return Remaining() }
        return lanes.endRemaining(
            sparingLanes: shutdownState.callerLanes, sparingDetached: shutdownState.detachedCallers)
    }

    /// Takes every queued post out of its queue (they stay outstanding until each has ended):
    /// what a system with a store keeps for the next start when its shutdown begins.
    mutating func takeQueued() -> [PendingPost] {
        guard isShuttingDownNow else { return [] }
        return lanes.takeQueued()
    }

    /// Once drained: removes the posts queued behind the callers' own posts, which cannot be
    /// delivered before those end (each still counts as outstanding until
    /// ``endedWhileQueued(_:)``, and ends early).
    mutating func takeQueuedBehindCallers() -> [PendingPost] {
        guard isShuttingDownNow else { return [] }
        return lanes.takeQueued(on: shutdownState.callerLanes)
    }

    /// Makes the report, the first time the drain is complete: the counts so far, with the
    /// posts still outstanding (the callers' own) as ``EventSystem/ShutdownReport/inProgress``.
    /// Later calls return it unchanged. `closed` when the office closed with it (nothing is
    /// outstanding: finish the observation streams). Only once the shutdown has begun.
    mutating func makeReport() -> (report: EventSystem.ShutdownReport, closed: Bool) {
        let (report, isNew) = shutdownState.makeReport(outstanding: admission.outstanding)
        guard isNew else { return (report, false) }
        var released = Released()
        settle(into: &released)
        return (report, released.closed)
    }

    // MARK: Helpers

    /// Whether the shutdown has begun and the office has not closed.
    private var isShuttingDownNow: Bool { !shutdownState.isRunning && !shutdownState.isClosed }

    /// What the drain waits for, counted now.
    private var drainCount: ShutdownStateMachine.Outstanding {
        ShutdownStateMachine.Outstanding(
            total: admission.outstanding,
            onCallerLanes: shutdownState.isRunning ? 0 : lanes.postCount(on: shutdownState.callerLanes))
    }

    /// Which caller the shutdown notes for `lane` and `ticket` (see ``shutdown(from:ticket:)``):
    /// the post that released its lane, or the lane's post in flight; `nil` if neither.
    private func callerOf(lane: LaneKey, ticket: TicketState?) -> ShutdownStateMachine.Caller? {
        if let ticket, lanes.isDetached(ticket) { return .detached(ObjectIdentifier(ticket)) }
        guard let inFlight = lanes.inFlight(on: lane), ticket.map({ $0 === inFlight }) ?? true else {
            return nil
        }
        return .lane(lane)
    }

    /// One outstanding post's ticket holds its outcome: its room is freed and handed to waiting
    /// posters (their posts queued), and the shutdown counts it.
    private mutating func postEnded(
        _ settlement: TicketState.Settlement, delivery: (lane: LaneKey, wasDetached: Bool)?,
        into released: inout Released
    ) {
        if case .admitWaitingPosters = admission.postEnded() {
            while let waiter = admission.admitWaitingPoster() {
                let waiting = waiter.element
                if lanes.queue(waiting.post, lane: waiting.lane) == .startDelivery {
                    released.lanesToStart.append((waiting.lane, waiting.isolation))
                }
                released.admitted.append(waiter.continuation)
            }
        }
        if !shutdownState.isRunning { shutdownState.postEnded(settlement, delivery: delivery) }
    }

    /// While shutting down, after a change: the drain's waiters once drained, and the office
    /// closes once its report is made and nothing is outstanding (the lanes are dropped).
    private mutating func settle(into released: inout Released) {
        guard !shutdownState.isRunning else { return }
        let action = shutdownState.settle(drainCount)
        released.drainWaiters = action.drainWaiters
        if action.closed {
            released.closed = true
            lanes.close()
        }
    }
}

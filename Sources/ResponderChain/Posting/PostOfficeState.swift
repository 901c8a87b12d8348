/// The state machine behind ``PostOffice``: the per-sender queues ("lanes"), the count of
/// outstanding posts against the ``EventSystem/PostingLimit``, the tasks waiting (for room, for the shutdown
/// to begin, for the drain), and the shutdown.
///
/// A pure value: it never runs user code, starts tasks or resumes continuations. Its data lives
/// in the case of ``State`` it means something in, and each transition returns an action: what
/// its caller (``PostOffice``, which holds it in a `Locked`) must do once outside the lock:
/// deliver a post, start a lane's delivery task, resume the continuations it hands back, end the
/// posts a shutdown or a ticket took out of their queues, cancel deliveries.
///
/// ```
///  post ──room?──▶ lane.pending ──(lane idle: start delivery)──▶ in flight ──▶ finished
///    │ no room: reject, or wait ─────(room freed, first come first served)──▲
///    │ shutting down: refused
///
///  open ──shutdown()──▶ shuttingDown(draining) ──makeReport()──▶ shuttingDown(reported)
///                          │ grace period over: endRemaining()          │ nothing outstanding
///                                                                       ▼
///                                                                     closed
/// ```
///
/// A task that must wait takes an identity from the transition that decided it
/// (``PostAction/mustWait(_:)``, ``ShutdownWait/mustWait(_:)``, ``DrainWait/mustWait(_:)``), then
/// hands its continuation to the matching `suspend…` transition, which either keeps it or answers
/// at once (room appeared, the shutdown began, the drain completed, or it was cancelled
/// meanwhile). Whoever cancels a waiter takes its continuation back through the matching
/// `cancel…` transition. The lines live in the phase they mean something in; the storage never
/// reaches into them.
struct PostOfficeState {
    /// The queue of one sender: its pending posts in post order, the one being delivered, and
    /// the task delivering them.
    struct Lane {
        var pending = FIFOBuffer<PendingPost>()
        var inFlight: TicketState?
        var delivery: Task<Void, Never>?
        /// Set when the post in flight was cancelled through its ticket: the delivery task has
        /// been (or is about to be) cancelled, so it must hand the rest of the lane to a fresh
        /// task instead of delivering more. A post that releases its lane
        /// (``release(_:lane:)``) retires its task the same way, at once.
        var retiring = false
    }

    /// A post that released its lane (``release(_:lane:)``): still outstanding, still in flight
    /// in the task that delivered it, but no longer its lane's; the lane's later posts are
    /// delivered by a fresh task meanwhile.
    struct DetachedPost {
        let ticket: TicketState
        /// The task delivering it, which delivers nothing else after it.
        let delivery: Task<Void, Never>?
    }

    /// A poster waiting for room: the post it wants to queue, on its lane, and the poster's
    /// isolation, where the lane's task runs if this post starts it.
    struct WaitingPost: Sendable {
        let lane: LaneKey
        let post: PendingPost
        let isolation: (any Actor)?
    }

    /// How a waiting poster's wait ended.
    enum Admission: Sendable {
        case accepted
        case cancelled
        case shuttingDown
    }

    typealias RoomLine = WaitingLine<WaitingPost, CheckedContinuation<Admission, Never>>
    typealias DrainLine = WaitingLine<Void, CheckedContinuation<Void, Never>>
    /// Tasks waiting for the shutdown to begin: `true` when it has, `false` when cancelled.
    typealias ShutdownLine = WaitingLine<Void, CheckedContinuation<Bool, Never>>

    /// The posts the office holds, in every phase but the closed one: its lanes, the number of
    /// posts outstanding (queued or in flight, until their tickets hold their outcomes) and the
    /// most there ever were.
    struct Mail {
        var lanes: [LaneKey: Lane] = [:]
        /// The posts that released their lanes and have not ended yet, by ticket.
        var detached: [ObjectIdentifier: DetachedPost] = [:]
        var outstanding = 0
        var peak = 0
    }

    /// Accepting posts.
    struct Open {
        var mail = Mail()
        /// Posters waiting for room.
        var roomLine = RoomLine()
        /// Tasks waiting for the shutdown to begin.
        var shutdownLine = ShutdownLine()
    }

    /// The waiters that took an identity while the office was open and had not suspended when
    /// the shutdown began. Nobody is suspended in these lines: each arrival is answered at once
    /// (cancelled, if it was cancelled first; refused, or told that the shutdown began,
    /// otherwise).
    struct LateArrivals {
        var posters: RoomLine
        var shutdownWaiters: ShutdownLine
    }

    /// How far the shutdown has come.
    enum Progress {
        /// Finishing the outstanding posts; the report's counts so far.
        case draining(counts: EventSystem.ShutdownReport)
        /// The report is made; what is still outstanding (the posts whose own deliveries called
        /// for the shutdown) ends uncounted.
        case reported(EventSystem.ShutdownReport)
    }

    /// Refusing new posts, finishing the outstanding ones.
    struct ShuttingDown {
        var mail: Mail
        var progress: Progress
        /// The lanes whose post in flight called for the shutdown from its own delivery: the
        /// drain does not wait for that post (it waits for the drain), and the posts queued
        /// behind it cannot be delivered before it ends.
        var callerLanes: Set<LaneKey> = []
        /// The posts that released their lanes and called for the shutdown from their own
        /// delivery, by ticket: the drain does not wait for them either.
        var detachedCallers: Set<ObjectIdentifier> = []
        /// Tasks waiting for the drain to complete.
        var drainLine = DrainLine()
        var late: LateArrivals
    }

    /// Refusing new posts, nothing outstanding.
    struct Closed {
        let report: EventSystem.ShutdownReport
        let peak: Int
        var late: LateArrivals
    }

    /// Where the office is in its life, with the data of that phase.
    private enum State {
        case open(Open)
        case shuttingDown(ShuttingDown)
        case closed(Closed)
        /// Held only inside a transition, while the payload of the real case is changed in place
        /// (without it, the payload would be shared with the enum and its lanes copied).
        case modifying
    }

    /// Where the office is in its life (for tests and diagnostics).
    enum Phase: Equatable {
        /// Accepting posts.
        case open
        /// Refusing new posts, finishing the outstanding ones.
        case draining
        /// Refusing new posts; the report is made, the callers' own posts still run.
        case reported
        /// Refusing new posts, nothing outstanding.
        case closed
    }

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

    /// What the delivery task of a lane does next.
    enum DeliveryStep {
        case deliver(PendingPost)
        /// The lane is empty (it has been removed): the task ends.
        case finished
        /// The task was cancelled by a ticket: it ends, and the caller starts a successor if
        /// `successor` (the lane still has posts). Also the step after a post that released its
        /// lane, with no successor: that lane's task was started at the release.
        case retire(successor: Bool)
    }

    /// What ``release(_:lane:)`` did.
    enum LaneRelease: Equatable {
        /// The post is not its lane's post in flight (it released it already, it has ended, the
        /// office is closed): nothing changed.
        case refused
        /// The post no longer holds its lane; when `successor`, the lane still has posts and the
        /// caller must start its new task.
        case released(successor: Bool)
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

    /// What cancelling a ticket requires.
    enum TicketCancellation {
        /// The post is being delivered: cancel this task (outside the lock) to wake its handler.
        case interruptDelivery(Task<Void, Never>?)
        /// The post was still queued and has been removed: settle its ticket as cancelled, then
        /// call ``endedWhileQueued(_:)`` (it counts as outstanding until then).
        case removedFromQueue(PendingPost)
        /// The post has finished already (or was never queued).
        case none
    }

    /// What ``waitForShutdown()`` decided.
    enum ShutdownWait: Equatable {
        /// The shutdown has begun.
        case began
        /// Suspend with this identity (``suspendShutdownWaiter(_:continuation:)``).
        case mustWait(WaiterID)
    }

    /// What ``waitForDrain()`` decided.
    enum DrainWait: Equatable {
        /// Everything the drain waits for has ended.
        case drained
        /// Suspend with this identity (``suspendDrainWaiter(_:continuation:)``).
        case mustWait(WaiterID)
    }

    /// What ``shutdown(from:)`` found.
    struct ShutdownStart {
        /// Posters that were waiting for room: resume them as refused.
        var refused: [CheckedContinuation<Admission, Never>] = []
        /// Tasks waiting for the shutdown to begin: resume them with `true`.
        var began: [CheckedContinuation<Bool, Never>] = []
        /// What the start freed: the drain's waiters, if nothing the drain waits for is
        /// outstanding, and whether the office closed.
        var released = Released()
    }

    /// What ``endRemaining()`` took away when the grace period ended.
    struct Remaining {
        /// Queued posts, removed from their lanes: settle each as cancelled by the shutdown,
        /// then call ``endedWhileQueued(_:)``.
        var queued: [PendingPost] = []
        /// Posts being delivered: set their signal to the shutdown and cancel their tasks.
        var inFlight: [(ticket: TicketState, delivery: Task<Void, Never>?)] = []
    }

    let limit: EventSystem.PostingLimit
    private var state = State.open(Open())

    init(limit: EventSystem.PostingLimit) {
        self.limit = limit
    }

    // MARK: Reading

    /// Where the office is in its life.
    var phase: Phase {
        switch state {
        case .open: .open
        case .shuttingDown(let shuttingDown):
            if case .draining = shuttingDown.progress { .draining } else { .reported }
        case .closed: .closed
        case .modifying: preconditionFailure("read during a transition")
        }
    }

    /// Whether the office is shutting down or has shut down.
    var isShuttingDown: Bool { phase != .open }

    /// The posts queued or in flight, the most there ever were, and the posters waiting for room.
    var statistics: (outstanding: Int, peak: Int, suspended: Int) {
        switch state {
        case .open(let open): (open.mail.outstanding, open.mail.peak, open.roomLine.count)
        case .shuttingDown(let shuttingDown): (shuttingDown.mail.outstanding, shuttingDown.mail.peak, 0)
        case .closed(let closed): (0, closed.peak, 0)
        case .modifying: preconditionFailure("read during a transition")
        }
    }

    var outstanding: Int { statistics.outstanding }

    /// Whether the post `id` is being delivered: in flight on its lane, or detached from it, its
    /// ticket not yet holding its outcome (which its streams may have already).
    func isDelivering(_ id: EventID) -> Bool {
        let mail: Mail
        switch state {
        case .open(let open): mail = open.mail
        case .shuttingDown(let shuttingDown): mail = shuttingDown.mail
        case .closed: return false
        case .modifying: preconditionFailure("read during a transition")
        }
        return mail.lanes.values.contains { $0.inFlight?.eventID == id }
            || mail.detached.values.contains { $0.ticket.eventID == id }
    }
    var peak: Int { statistics.peak }

    /// Whether everything the drain waits for has ended: the office is shutting down and the only
    /// posts outstanding are those of lanes whose post in flight called for the shutdown.
    var isDrained: Bool {
        switch state {
        case .open: false
        case .shuttingDown(let shuttingDown): shuttingDown.isDrained
        case .closed: true
        case .modifying: preconditionFailure("read during a transition")
        }
    }

    /// The counts so far, before the report is made (for a call made from inside the shutdown's
    /// own endings), or the report.
    var countsSoFar: EventSystem.ShutdownReport {
        switch state {
        case .open, .modifying: EventSystem.ShutdownReport(finished: 0, endedEarly: 0, refused: 0)
        case .shuttingDown(let shuttingDown):
            switch shuttingDown.progress {
            case .draining(let counts): counts
            case .reported(let report): report
            }
        case .closed(let closed): closed.report
        }
    }

    // MARK: Posting

    /// Accepts `post` into `lane` if there is room (or `overLimit`: a post made by a running
    /// delivery's handlers), refuses it while shutting down.
    mutating func post(_ post: PendingPost, lane: LaneKey, overLimit: Bool) -> PostAction {
        switch state {
        case .open:
            // No `defer` to put the data back: it would copy it rather than move it.
            var open = takeOpen()
            let action: PostAction
            if overLimit || open.hasRoom(under: limit) {
                action = .accepted(startDelivery: open.mail.enqueue(post, lane: lane))
            } else {
                switch limit.policy {
                case .reject: action = .rejected(.limitReached(maxOutstanding: limit.maxOutstanding))
                case .suspend: action = .mustWait(open.roomLine.makeID())
                }
            }
            state = .open(consume open)
            return action
        case .shuttingDown(var shuttingDown):
            state = .modifying
            shuttingDown.countRefused()
            state = .shuttingDown(shuttingDown)
            return .rejected(.shuttingDown)
        case .closed:
            return .rejected(.shuttingDown)
        case .modifying:
            preconditionFailure("post during a transition")
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
        switch state {
        case .open(var open):
            state = .modifying
            defer { state = .open(open) }
            if open.roomLine.isCancelledBeforeSuspending(id) {
                open.roomLine.withdraw(id)
                return .resume(.cancelled, startDelivery: false)
            }
            if open.hasRoom(under: limit) {
                open.roomLine.withdraw(id)
                return .resume(.accepted, startDelivery: open.mail.enqueue(waiting.post, lane: waiting.lane))
            }
            switch open.roomLine.suspend(id, element: waiting, continuation: continuation) {
            case .suspended: return .suspended
            case .cancelledBeforeSuspending: return .resume(.cancelled, startDelivery: false)
            }
        case .shuttingDown(var shuttingDown):
            state = .modifying
            defer { state = .shuttingDown(shuttingDown) }
            if shuttingDown.late.posters.isCancelledBeforeSuspending(id) {
                shuttingDown.late.posters.withdraw(id)
                return .resume(.cancelled, startDelivery: false)
            }
            shuttingDown.late.posters.withdraw(id)
            shuttingDown.countRefused()
            return .resume(.shuttingDown, startDelivery: false)
        case .closed(var closed):
            let cancelled = closed.late.posters.isCancelledBeforeSuspending(id)
            closed.late.posters.withdraw(id)
            state = .closed(closed)
            return .resume(cancelled ? .cancelled : .shuttingDown, startDelivery: false)
        case .modifying:
            preconditionFailure("suspend during a transition")
        }
    }

    /// Cancels the poster `id`: the continuation to resume as cancelled, if it was suspended;
    /// otherwise it is remembered as cancelled for when it arrives.
    mutating func cancelPoster(_ id: WaiterID) -> CheckedContinuation<Admission, Never>? {
        cancel(id, whileOpen: \.roomLine, late: \.posters)
    }

    /// Records the task delivering `lane`.
    mutating func attach(_ task: Task<Void, Never>, to lane: LaneKey) {
        changeMail { $0.lanes[lane]?.delivery = task }
    }

    // MARK: Delivery

    /// The next step of `lane`'s delivery task, after the post it just delivered (if any) has
    /// ended: `delivered` is its ticket's settlement, so the post stops counting as outstanding
    /// only once its ticket holds its outcome.
    mutating func nextStep(
        lane key: LaneKey,
        after delivered: TicketState.Settlement?
    ) -> (step: DeliveryStep, released: Released) {
        switch state {
        case .open:
            var open = takeOpen()
            var released = Released()
            var detached = false
            if let delivered {
                // A post that released its lane ends without touching it.
                detached = open.mail.endDetached(delivered)
                if !detached { open.mail.lanes[key]?.inFlight = nil }
                released = open.postEnded(delivered, limit: limit)
            }
            // After a post that released its lane, its task delivers nothing more.
            let step = detached ? DeliveryStep.retire(successor: false) : open.mail.step(lane: key)
            state = .open(consume open)
            return (step, released)
        case .shuttingDown(var shuttingDown):
            state = .modifying
            var detached = false
            if let delivered {
                detached = shuttingDown.mail.endDetached(delivered)
                if detached {
                    shuttingDown.detachedCallers.remove(ObjectIdentifier(delivered.ticket))
                } else {
                    shuttingDown.mail.lanes[key]?.inFlight = nil
                    // A caller's post has ended: its lane is drained like any other from now on.
                    shuttingDown.callerLanes.remove(key)
                }
                shuttingDown.postEnded(delivered)
            }
            let step = detached ? DeliveryStep.retire(successor: false) : shuttingDown.mail.step(lane: key)
            return (step, settle(shuttingDown))
        case .closed:
            // Nothing is outstanding: the lane, if its task finds it, is empty.
            return (.finished, Released())
        case .modifying:
            preconditionFailure("step during a transition")
        }
    }

    /// A post removed from its queue (by its ticket, by ``endRemaining()``, by
    /// ``takeQueuedBehindCallers()`` or by ``removeQueued(_:lane:)``) has been settled: it stops
    /// counting as outstanding.
    mutating func endedWhileQueued(_ settlement: TicketState.Settlement) -> Released {
        switch state {
        case .open:
            var open = takeOpen()
            let released = open.postEnded(settlement, limit: limit)
            state = .open(consume open)
            return released
        case .shuttingDown(var shuttingDown):
            state = .modifying
            shuttingDown.postEnded(settlement)
            return settle(shuttingDown)
        case .closed:
            preconditionFailure("a post ended after the office closed")
        case .modifying:
            preconditionFailure("a post ended during a transition")
        }
    }

    // MARK: Cancellation through a ticket

    mutating func cancel(_ ticket: TicketState, lane key: LaneKey) -> TicketCancellation {
        changeMail { $0.cancel(ticket, lane: key) } ?? .none
    }

    // MARK: Releasing a lane

    /// Lets `lane` go on without `ticket`'s post, its post in flight: the post stays outstanding
    /// and goes on in its task to its outcome (``nextStep(lane:after:)`` then ends it without
    /// touching the lane), while the lane's later posts are delivered by a fresh task, as after a
    /// cancelled post (``Lane/retiring``). The drain, the limit, ticket cancellation and
    /// ``endRemaining()`` still reach it; ``postAhead(of:lane:)`` no longer sees it.
    /// Whether `ticket`'s post is the one `lane` is delivering (so not released).
    func isInFlight(_ ticket: TicketState, lane key: LaneKey) -> Bool {
        switch state {
        case .open(let open): open.mail.lanes[key]?.inFlight === ticket
        case .shuttingDown(let shuttingDown): shuttingDown.mail.lanes[key]?.inFlight === ticket
        case .closed: false
        case .modifying: preconditionFailure("read during a transition")
        }
    }

    mutating func release(_ ticket: TicketState, lane key: LaneKey) -> LaneRelease {
        switch state {
        case .open:
            var open = takeOpen()
            let release = open.mail.release(ticket, lane: key)
            state = .open(consume open)
            return release
        case .shuttingDown(var shuttingDown):
            state = .modifying
            defer { state = .shuttingDown(shuttingDown) }
            let release = shuttingDown.mail.release(ticket, lane: key)
            // A caller's post stays uncounted by the drain; the posts behind it may run now.
            if case .released = release, shuttingDown.callerLanes.remove(key) != nil {
                shuttingDown.detachedCallers.insert(ObjectIdentifier(ticket))
            }
            return release
        case .closed:
            return .refused
        case .modifying:
            preconditionFailure("release during a transition")
        }
    }

    // MARK: Waiting on yourself

    /// The post in flight on `lane` while `ticket`'s post is queued behind it; `nil` if it is not
    /// queued there (in flight, ended, not yet accepted) or nothing is in flight.
    func postAhead(of ticket: TicketState, lane key: LaneKey) -> TicketState? {
        let mail: Mail
        switch state {
        case .open(let open): mail = open.mail
        case .shuttingDown(let shuttingDown): mail = shuttingDown.mail
        case .closed, .modifying: return nil
        }
        guard let lane = mail.lanes[key], let inFlight = lane.inFlight, inFlight !== ticket,
            lane.pending.count(where: { $0.ticket === ticket }) > 0
        else { return nil }
        return inFlight
    }

    /// Removes `ticket`'s post from `lane`'s queue, if it is queued there: settle its ticket,
    /// then call ``endedWhileQueued(_:)`` (it counts as outstanding until then).
    mutating func removeQueued(_ ticket: TicketState, lane key: LaneKey) -> PendingPost? {
        changeMail { mail in
            guard let index = mail.lanes.index(forKey: key) else { return nil }
            return mail.lanes.values[index].pending.remove(where: { $0.ticket === ticket })
        } ?? nil
    }

    // MARK: Shutdown

    /// Whether the shutdown has begun; if not, the identity to wait for it under.
    mutating func waitForShutdown() -> ShutdownWait {
        guard case .open(var open) = state else { return .began }
        state = .modifying
        let id = open.shutdownLine.makeID()
        state = .open(open)
        return .mustWait(id)
    }

    /// Suspends the task `id` (made by ``waitForShutdown()``) until the shutdown begins; the value
    /// to resume it with at once instead: `true` if the shutdown has begun, `false` if the task was
    /// cancelled meanwhile.
    mutating func suspendShutdownWaiter(_ id: WaiterID, continuation: CheckedContinuation<Bool, Never>)
        -> Bool?
    {
        switch state {
        case .open(var open):
            state = .modifying
            defer { state = .open(open) }
            if open.shutdownLine.isCancelledBeforeSuspending(id) {
                open.shutdownLine.withdraw(id)
                return false
            }
            switch open.shutdownLine.suspend(id, element: (), continuation: continuation) {
            case .suspended: return nil
            case .cancelledBeforeSuspending: return false
            }
        case .shuttingDown(var shuttingDown):
            state = .modifying
            let began = shuttingDown.late.answerShutdownWaiter(id)
            state = .shuttingDown(shuttingDown)
            return began
        case .closed(var closed):
            let began = closed.late.answerShutdownWaiter(id)
            state = .closed(closed)
            return began
        case .modifying:
            preconditionFailure("suspend during a transition")
        }
    }

    /// Cancels the task `id` waiting for the shutdown: the continuation to resume with `false`,
    /// if it was suspended; otherwise it is remembered as cancelled for when it arrives.
    mutating func cancelShutdownWaiter(_ id: WaiterID) -> CheckedContinuation<Bool, Never>? {
        cancel(id, whileOpen: \.shutdownLine, late: \.shutdownWaiters)
    }

    /// Cancels the waiter `id` of one waiting line: `open`'s while the office is open, the late
    /// arrivals' once it shuts down. Returns the continuation to resume as cancelled, if the
    /// waiter was suspended; otherwise it is remembered as cancelled for when it arrives.
    private mutating func cancel<Element, Continuation>(
        _ id: WaiterID,
        whileOpen open: WritableKeyPath<Open, WaitingLine<Element, Continuation>>,
        late: WritableKeyPath<LateArrivals, WaitingLine<Element, Continuation>>
    ) -> Continuation? {
        let action: WaitingLine<Element, Continuation>.CancelAction
        switch state {
        case .open(var office):
            state = .modifying
            action = office[keyPath: open].cancel(id)
            state = .open(office)
        case .shuttingDown(var shuttingDown):
            state = .modifying
            action = shuttingDown.late[keyPath: late].cancel(id)
            state = .shuttingDown(shuttingDown)
        case .closed(var closed):
            action = closed.late[keyPath: late].cancel(id)
            state = .closed(closed)
        case .modifying:
            preconditionFailure("cancel during a transition")
        }
        if case .resume(let waiter) = action { return waiter.continuation }
        return nil
    }

    /// Whether the drain is complete; if not, the identity to wait for it under. Only once the
    /// shutdown has begun.
    mutating func waitForDrain() -> DrainWait {
        switch state {
        case .open, .modifying:
            preconditionFailure("the drain is awaited only once the shutdown has begun")
        case .shuttingDown(var shuttingDown):
            if shuttingDown.isDrained { return .drained }
            state = .modifying
            let id = shuttingDown.drainLine.makeID()
            state = .shuttingDown(shuttingDown)
            return .mustWait(id)
        case .closed:
            return .drained
        }
    }

    /// Suspends the task `id` (made by ``waitForDrain()``) until the drain completes; `true` to
    /// resume it at once instead (it completed meanwhile). The wait ignores cancellation.
    mutating func suspendDrainWaiter(_ id: WaiterID, continuation: CheckedContinuation<Void, Never>)
        -> Bool
    {
        switch state {
        case .open, .modifying:
            preconditionFailure("the drain is awaited only once the shutdown has begun")
        case .shuttingDown(var shuttingDown):
            state = .modifying
            defer { state = .shuttingDown(shuttingDown) }
            if shuttingDown.isDrained {
                shuttingDown.drainLine.withdraw(id)
                return true
            }
            switch shuttingDown.drainLine.suspend(id, element: (), continuation: continuation) {
            case .suspended: return false
            case .cancelledBeforeSuspending: return true
            }
        case .closed:
            return true
        }
    }

    /// Starts the shutdown: from now on every post is refused; posters waiting for room are
    /// refused too. Calling it again changes nothing, but for `caller`: the lane of a post whose
    /// own delivery calls for the shutdown (its handler, its dead-letter sink), which the drain
    /// then does not wait for (until the report is made). `ticket`, when given, is that post's:
    /// a post that released its lane is not the lane's post in flight, but is still not waited for.
    mutating func shutdown(from caller: LaneKey? = nil, ticket: TicketState? = nil) -> ShutdownStart {
        var start = ShutdownStart()
        var shuttingDown: ShuttingDown
        switch state {
        case .open(var open):
            state = .modifying
            let refused = open.roomLine.removeAll()
            start.refused = refused.map(\.continuation)
            start.began = open.shutdownLine.removeAll().map(\.continuation)
            shuttingDown = ShuttingDown(
                mail: open.mail,
                progress: .draining(
                    counts: EventSystem.ShutdownReport(finished: 0, endedEarly: 0, refused: refused.count)),
                late: LateArrivals(posters: open.roomLine, shutdownWaiters: open.shutdownLine))
        case .shuttingDown(let current):
            state = .modifying
            shuttingDown = current
        case .closed:
            return start
        case .modifying:
            preconditionFailure("shutdown during a transition")
        }
        if let caller, case .draining = shuttingDown.progress {
            if let ticket, shuttingDown.mail.detached[ObjectIdentifier(ticket)] != nil {
                shuttingDown.detachedCallers.insert(ObjectIdentifier(ticket))
            } else if let inFlight = shuttingDown.mail.lanes[caller]?.inFlight,
                ticket.map({ $0 === inFlight }) ?? true
            {
                shuttingDown.callerLanes.insert(caller)
            }
        }
        start.released = settle(shuttingDown)
        return start
    }

    /// Ends the grace period: removes every queued post (each still counts as outstanding until
    /// ``endedWhileQueued(_:)``) and names the posts in flight, whose deliveries must be
    /// stopped; not the callers' own posts, which wait for the shutdown.
    mutating func endRemaining() -> Remaining {
        guard case .shuttingDown(var shuttingDown) = state else { return Remaining() }
        state = .modifying
        defer { state = .shuttingDown(shuttingDown) }
        var remaining = Remaining()
        for index in shuttingDown.mail.lanes.indices {
            while let post = shuttingDown.mail.lanes.values[index].pending.popFirst() {
                remaining.queued.append(post)
            }
            if let ticket = shuttingDown.mail.lanes.values[index].inFlight,
                !shuttingDown.callerLanes.contains(shuttingDown.mail.lanes.keys[index])
            {
                remaining.inFlight.append((ticket, shuttingDown.mail.lanes.values[index].delivery))
            }
        }
        for (key, post) in shuttingDown.mail.detached where !shuttingDown.detachedCallers.contains(key) {
            remaining.inFlight.append((post.ticket, post.delivery))
        }
        return remaining
    }

    /// Once drained: removes the posts queued behind the callers' own posts, which cannot be
    /// delivered before those end (each still counts as outstanding until
    /// ``endedWhileQueued(_:)``, and ends early).
    /// Takes every queued post out of its queue (they stay outstanding until each has ended):
    /// what a system with a store keeps for the next start when its shutdown begins.
    mutating func takeQueued() -> [PendingPost] {
        guard case .shuttingDown(var shuttingDown) = state else { return [] }
        state = .modifying
        defer { state = .shuttingDown(shuttingDown) }
        var queued: [PendingPost] = []
        for index in shuttingDown.mail.lanes.indices {
            while let post = shuttingDown.mail.lanes.values[index].pending.popFirst() {
                queued.append(post)
            }
        }
        return queued
    }

    mutating func takeQueuedBehindCallers() -> [PendingPost] {
        guard case .shuttingDown(var shuttingDown) = state else { return [] }
        state = .modifying
        var queued: [PendingPost] = []
        for key in shuttingDown.callerLanes {
            guard let index = shuttingDown.mail.lanes.index(forKey: key) else { continue }
            while let post = shuttingDown.mail.lanes.values[index].pending.popFirst() { queued.append(post) }
        }
        state = .shuttingDown(shuttingDown)
        return queued
    }

    /// Makes the report, the first time the drain is complete: the counts so far, with the
    /// posts still outstanding (the callers' own) as ``EventSystem/ShutdownReport/inProgress``. Later calls
    /// return it unchanged. `closed` when the office closed with it (nothing is outstanding:
    /// finish the observation streams). Only once the shutdown has begun.
    mutating func makeReport() -> (report: EventSystem.ShutdownReport, closed: Bool) {
        switch state {
        case .open, .modifying:
            preconditionFailure("the report is made only once the shutdown has begun")
        case .shuttingDown(var shuttingDown):
            switch shuttingDown.progress {
            case .reported(let report):
                return (report, false)
            case .draining(var counts):
                state = .modifying
                counts.inProgress = shuttingDown.mail.outstanding
                shuttingDown.progress = .reported(counts)
                return (counts, settle(shuttingDown).closed)
            }
        case .closed(let closed):
            return (closed.report, false)
        }
    }

    // MARK: Helpers

    /// Moves the data of the open office out of ``state``, leaving ``State/modifying`` there
    /// until the caller puts it back. A move, not a copy: binding the payload with
    /// `case .open(var open)` would retain every buffer of the office and release it again, at
    /// each post.
    private mutating func takeOpen() -> Open {
        var taken = State.modifying
        swap(&taken, &state)
        guard case .open(let open) = consume taken else {
            preconditionFailure("the office is not open")
        }
        return open
    }

    /// Changes the mail in place, in the phases that hold one; `nil` once closed.
    private mutating func changeMail<Result>(_ change: (inout Mail) -> Result) -> Result? {
        switch state {
        case .open:
            var open = takeOpen()
            let result = change(&open.mail)
            state = .open(consume open)
            return result
        case .shuttingDown(var shuttingDown):
            state = .modifying
            defer { state = .shuttingDown(shuttingDown) }
            return change(&shuttingDown.mail)
        case .closed:
            return nil
        case .modifying:
            preconditionFailure("changed during a transition")
        }
    }

    /// Stores `shuttingDown` back, or closes the office if its report is made and nothing is
    /// outstanding; returns the drain's waiters, once drained, and whether it closed now.
    private mutating func settle(_ shuttingDown: consuming ShuttingDown) -> Released {
        var released = Released()
        if shuttingDown.isDrained {
            released.drainWaiters = shuttingDown.drainLine.removeAll().map(\.continuation)
        }
        if case .reported(let report) = shuttingDown.progress, shuttingDown.mail.outstanding == 0 {
            state = .closed(Closed(report: report, peak: shuttingDown.mail.peak, late: shuttingDown.late))
            released.closed = true
        } else {
            state = .shuttingDown(shuttingDown)
        }
        return released
    }
}

extension PostOfficeState.Mail {
    /// Queues `post` on `lane`; returns whether the lane was idle (its delivery must start).
    mutating func enqueue(_ post: PendingPost, lane key: LaneKey) -> Bool {
        outstanding += 1
        peak = max(peak, outstanding)
        let wasIdle = lanes[key] == nil
        lanes[key, default: PostOfficeState.Lane()].pending.append(post)
        return wasIdle
    }

    /// What `lane`'s task does next, its post in flight (if any) having ended.
    mutating func step(lane key: LaneKey) -> PostOfficeState.DeliveryStep {
        // The lane is changed in place (through its index), never copied out and back: a copy
        // would share the queue's storage, and popping from it would copy the whole queue.
        guard let index = lanes.index(forKey: key) else { return .finished }
        if lanes.values[index].retiring {
            lanes.values[index].retiring = false
            lanes.values[index].delivery = nil
            if lanes.values[index].pending.isEmpty {
                lanes.remove(at: index)
                return .retire(successor: false)
            }
            return .retire(successor: true)
        }
        guard let post = lanes.values[index].pending.popFirst() else {
            lanes.remove(at: index)
            return .finished
        }
        lanes.values[index].inFlight = post.ticket
        return .deliver(post)
    }

    /// Detaches `ticket`'s post, `lane`'s post in flight, from its lane, and retires the lane's
    /// task at once (see ``step(lane:)``).
    mutating func release(_ ticket: TicketState, lane key: LaneKey) -> PostOfficeState.LaneRelease {
        guard let index = lanes.index(forKey: key), lanes.values[index].inFlight === ticket else {
            return .refused
        }
        detached[ObjectIdentifier(ticket)] = PostOfficeState.DetachedPost(
            ticket: ticket, delivery: lanes.values[index].delivery)
        lanes.values[index].inFlight = nil
        lanes.values[index].retiring = true
        guard case .retire(let successor) = step(lane: key) else {
            preconditionFailure("a retiring lane retires its task")
        }
        return .released(successor: successor)
    }

    /// Whether the post just settled had released its lane; it is forgotten if so.
    mutating func endDetached(_ settlement: TicketState.Settlement) -> Bool {
        // One check of an empty table on the common path.
        !detached.isEmpty && detached.removeValue(forKey: ObjectIdentifier(settlement.ticket)) != nil
    }

    mutating func cancel(_ ticket: TicketState, lane key: LaneKey)
        -> PostOfficeState.TicketCancellation
    {
        if !detached.isEmpty, let post = detached[ObjectIdentifier(ticket)] {
            return .interruptDelivery(post.delivery)
        }
        guard let index = lanes.index(forKey: key) else { return .none }
        if lanes.values[index].inFlight === ticket {
            lanes.values[index].retiring = true
            return .interruptDelivery(lanes.values[index].delivery)
        }
        guard let post = lanes.values[index].pending.remove(where: { $0.ticket === ticket }) else {
            return .none
        }
        return .removedFromQueue(post)
    }
}

extension PostOfficeState.Open {
    func hasRoom(under limit: EventSystem.PostingLimit) -> Bool {
        mail.outstanding < limit.maxOutstanding && roomLine.isEmpty
    }

    /// One outstanding post's ticket holds its outcome: its room is freed, and handed to waiting
    /// posters, first come first served, once there is room for a batch
    /// (``EventSystem/PostingLimit/resumeBatch``): a poster resumed for a single slot would suspend again at
    /// its next post, paying a wake-up per event.
    mutating func postEnded(_ settlement: TicketState.Settlement, limit: EventSystem.PostingLimit)
        -> PostOfficeState.Released
    {
        mail.outstanding -= 1
        var released = PostOfficeState.Released()
        guard mail.outstanding <= limit.maxOutstanding - limit.resumeBatch else { return released }
        while mail.outstanding < limit.maxOutstanding, let waiter = roomLine.popFirst() {
            let waiting = waiter.element
            if mail.enqueue(waiting.post, lane: waiting.lane) {
                released.lanesToStart.append((waiting.lane, waiting.isolation))
            }
            released.admitted.append(waiter.continuation)
        }
        return released
    }
}

extension PostOfficeState.ShuttingDown {
    /// Whether everything the drain waits for has ended: the only posts outstanding are those of
    /// lanes whose post in flight called for the shutdown, and the posts that released their
    /// lanes and called for it.
    var isDrained: Bool { mail.outstanding == postsOnCallerLanes + detachedCallers.count }

    /// The posts on the callers' lanes: each one's post in flight and those queued behind it.
    private var postsOnCallerLanes: Int {
        callerLanes.reduce(0) { count, key in
            count + (mail.lanes[key].map { ($0.inFlight == nil ? 0 : 1) + $0.pending.count } ?? 0)
        }
    }

    /// Counts a post refused, until the report is made.
    mutating func countRefused() {
        guard case .draining(var counts) = progress else { return }
        counts.refused += 1
        progress = .draining(counts: counts)
    }

    /// One outstanding post's ticket holds its outcome: it stops counting as outstanding, and is
    /// counted by that outcome until the report is made.
    ///
    /// Taking the settlement (not a bare outcome) is what keeps the order: a post can stop
    /// counting only after its ticket was settled, so when the drain completes, every ticket it
    /// waited for already has the outcome the report counted.
    mutating func postEnded(_ settlement: TicketState.Settlement) {
        mail.outstanding -= 1
        guard case .draining(var counts) = progress else { return }
        if settlement.outcome.wasEndedByShutdown {
            counts.endedEarly += 1
        } else if settlement.outcome.wasKeptForNextStart {
            counts.kept += 1
        } else {
            counts.finished += 1
        }
        progress = .draining(counts: counts)
    }
}

extension PostOfficeState.LateArrivals {
    /// Answers the late task `id` waiting for the shutdown: `false` if it was cancelled first,
    /// `true` (the shutdown has begun) otherwise.
    mutating func answerShutdownWaiter(_ id: WaiterID) -> Bool {
        let cancelled = shutdownWaiters.isCancelledBeforeSuspending(id)
        shutdownWaiters.withdraw(id)
        return !cancelled
    }
}

extension Outcome {
    /// Whether a system's shutdown ended this event.
    var wasEndedByShutdown: Bool {
        if case .cancelled(let stop) = self { return stop.reason == .shutdown }
        return false
    }

    /// Whether a system's shutdown kept this event in its store for the next start.
    var wasKeptForNextStart: Bool {
        if case .cancelled(let stop) = self { return stop.reason == .keptForNextStart }
        return false
    }
}

/// The state machine behind ``PostOffice``: the per-sender queues ("lanes"), the count of
/// outstanding posts against the ``PostingLimit``, the posters waiting for room, and the
/// shutdown.
///
/// A pure value: it never runs user code, starts tasks or resumes continuations. Each transition
/// returns what its caller (``PostOffice``, which holds it in a `Locked`) must do once outside
/// the lock: deliver a post, start a lane's delivery task, resume waiting posters, end the posts
/// a shutdown cut short, wake the tasks waiting for the drain.
///
/// ```
///  post ──room?──▶ lane.pending ──(lane idle: start delivery)──▶ in flight ──▶ finished
///    │ no room: reject, or wait ─────(room freed, first come first served)──▲
///    │ shutting down: refused
///
///  open ──shutdown()──▶ draining ──(nothing outstanding)──▶ closed
///                          │ grace period over: endRemaining()
/// ```
struct PostOfficeState {
    /// The queue of one sender: its pending posts in post order, the one being delivered, and
    /// the task delivering them.
    struct Lane {
        var pending = FIFOBuffer<PendingPost>()
        var inFlight: TicketState?
        var delivery: Task<Void, Never>?
        /// Set when the post in flight was cancelled through its ticket: the delivery task has
        /// been (or is about to be) cancelled, so it must hand the rest of the lane to a fresh
        /// task instead of delivering more.
        var retiring = false
    }

    /// A poster waiting for room: the post it wants to queue, on its lane.
    struct WaitingPost: Sendable {
        let lane: ObjectIdentifier
        let post: PendingPost
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

    /// What ``post(_:lane:overLimit:)`` decided.
    enum PostDecision: Equatable {
        /// Queued; when `startDelivery`, the lane was idle and the caller must start its task.
        case accepted(startDelivery: Bool)
        /// Not accepted, for this reason.
        case rejected(Outcome.Rejection.Reason)
        /// Full, and the policy suspends: wait in ``roomLine``.
        case mustWait
    }

    /// What the delivery task of a lane does next.
    enum DeliveryStep {
        case deliver(PendingPost)
        /// The lane is empty (it has been removed): the task ends.
        case finished
        /// The task was cancelled by a ticket: it ends, and the caller starts a successor if
        /// `successor` (the lane still has posts).
        case retire(successor: Bool)
    }

    /// What a transition freed: posters admitted (resume them: their posts are queued), lanes
    /// whose delivery must start, the tasks waiting for the drain, if it is complete, and whether
    /// the office has just closed (nothing is outstanding any more: finish the observation
    /// streams).
    struct Released {
        var admitted: [RoomLine.Waiter] = []
        var lanesToStart: [ObjectIdentifier] = []
        var drainWaiters: [DrainLine.Waiter] = []
        var closed = false
    }

    /// Where the post office is in its life.
    enum Phase: Equatable {
        /// Accepting posts.
        case open
        /// Refusing new posts, finishing the outstanding ones.
        case draining
        /// Refusing new posts, nothing outstanding.
        case closed
    }

    /// What ``shutdown(from:)`` found.
    struct ShutdownStart {
        /// Posters that were waiting for room: resume them as refused.
        var refused: [RoomLine.Waiter] = []
        /// Tasks waiting for the shutdown to begin: resume them with `true`.
        var began: [ShutdownLine.Waiter] = []
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

    let limit: PostingLimit
    private var lanes: [ObjectIdentifier: Lane] = [:]
    /// Posters waiting for room (the storage suspends into it).
    var roomLine = RoomLine()
    /// Tasks waiting for the drain to complete (the storage suspends into it).
    var drainLine = DrainLine()
    /// Tasks waiting for the shutdown to begin (the storage suspends into it).
    var shutdownLine = ShutdownLine()
    private(set) var outstanding = 0
    private(set) var peak = 0
    private(set) var phase = Phase.open
    /// The shutdown's counts so far.
    private(set) var counts = ShutdownReport(finished: 0, endedEarly: 0, refused: 0)
    /// The report, once made: every later call to shut down returns it unchanged.
    private(set) var report: ShutdownReport?
    /// The lanes whose post in flight called for the shutdown from its own delivery: the drain
    /// does not wait for that post (it waits for the drain), and the posts queued behind it
    /// cannot be delivered before it ends.
    private var callerLanes: Set<ObjectIdentifier> = []

    init(limit: PostingLimit) {
        self.limit = limit
    }

    var suspendedCount: Int { roomLine.count }

    /// Whether everything the drain waits for has ended: the office is shutting down and the only
    /// posts outstanding are those of lanes whose post in flight called for the shutdown.
    var isDrained: Bool { phase != .open && outstanding == postsOnCallerLanes }

    /// The posts on the callers' lanes: each one's post in flight and those queued behind it.
    private var postsOnCallerLanes: Int {
        callerLanes.reduce(0) { count, key in
            count + (lanes[key].map { ($0.inFlight == nil ? 0 : 1) + $0.pending.count } ?? 0)
        }
    }

    private var hasRoom: Bool { outstanding < limit.maxOutstanding && roomLine.isEmpty }

    // MARK: Posting

    /// Accepts `post` into `lane` if there is room (or `overLimit`: a post made by a running
    /// delivery's handlers), refuses it while shutting down.
    mutating func post(_ post: PendingPost, lane: ObjectIdentifier, overLimit: Bool) -> PostDecision {
        guard phase == .open else {
            counts.refused += 1
            return .rejected(.shuttingDown)
        }
        if overLimit || hasRoom {
            return .accepted(startDelivery: enqueue(post, lane: lane))
        }
        switch limit.policy {
        case .reject: return .rejected(.limitReached(maxOutstanding: limit.maxOutstanding))
        case .suspend: return .mustWait
        }
    }

    /// Admits a poster that is about to wait, if room appeared (or the office closed) meanwhile;
    /// `nil` to wait. When accepted, `startDelivery` says whether its lane must be started.
    mutating func admitBeforeWaiting(_ post: PendingPost, lane: ObjectIdentifier)
        -> (admission: Admission, startDelivery: Bool)?
    {
        guard phase == .open else {
            counts.refused += 1
            return (.shuttingDown, false)
        }
        guard hasRoom else { return nil }
        return (.accepted, enqueue(post, lane: lane))
    }

    /// Returns whether the lane was idle (its delivery must start).
    private mutating func enqueue(_ post: PendingPost, lane key: ObjectIdentifier) -> Bool {
        outstanding += 1
        peak = max(peak, outstanding)
        let wasIdle = lanes[key] == nil
        lanes[key, default: Lane()].pending.append(post)
        return wasIdle
    }

    /// Records the task delivering `lane`.
    mutating func attach(_ task: Task<Void, Never>, to lane: ObjectIdentifier) {
        lanes[lane]?.delivery = task
    }

    // MARK: Delivery

    /// The next step of `lane`'s delivery task, after the post it just delivered (if any) has
    /// ended: `delivered` is its ticket's settlement, so the post stops counting as outstanding
    /// only once its ticket holds its outcome.
    mutating func nextStep(
        lane key: ObjectIdentifier,
        after delivered: TicketState.Settlement?
    ) -> (step: DeliveryStep, released: Released) {
        var released = Released()
        if let delivered {
            lanes[key]?.inFlight = nil
            // A caller's post has ended: its lane is drained like any other from now on.
            callerLanes.remove(key)
            released = postEnded(delivered)
        }
        // The lane is changed in place (through its index), never copied out and back: a copy
        // would share the queue's storage, and popping from it would copy the whole queue.
        guard let index = lanes.index(forKey: key) else { return (.finished, released) }
        if lanes.values[index].retiring {
            lanes.values[index].retiring = false
            lanes.values[index].delivery = nil
            if lanes.values[index].pending.isEmpty {
                lanes.remove(at: index)
                return (.retire(successor: false), released)
            }
            return (.retire(successor: true), released)
        }
        guard let post = lanes.values[index].pending.popFirst() else {
            lanes.remove(at: index)
            return (.finished, released)
        }
        lanes.values[index].inFlight = post.ticket
        return (.deliver(post), released)
    }

    /// One outstanding post's ticket holds its outcome: frees its room, counts it by that
    /// outcome if draining, and admits waiting posters or completes the drain.
    ///
    /// Taking the settlement (not a bare outcome) is what keeps the order: a post can stop
    /// counting only after its ticket was settled, so when the drain completes, every ticket it
    /// waited for already has the outcome the report counted.
    private mutating func postEnded(_ settlement: TicketState.Settlement) -> Released {
        outstanding -= 1
        if phase == .draining, report == nil {
            if settlement.outcome.wasEndedByShutdown { counts.endedEarly += 1 } else { counts.finished += 1 }
        }
        var released = admitWaiters()
        released.drainWaiters = drainWaitersIfDrained()
        released.closed = closeIfDone()
        return released
    }

    /// Hands the room freed by finished posts to waiting posters, first come first served, once
    /// there is room for a batch (``PostingLimit/resumeBatch``): a poster resumed for a single
    /// slot would suspend again at its next post, paying a wake-up per event.
    private mutating func admitWaiters() -> Released {
        var released = Released()
        guard phase == .open, outstanding <= limit.maxOutstanding - limit.resumeBatch else {
            return released
        }
        while outstanding < limit.maxOutstanding, let waiter = roomLine.popFirst() {
            if enqueue(waiter.element.post, lane: waiter.element.lane) {
                released.lanesToStart.append(waiter.element.lane)
            }
            released.admitted.append(waiter)
        }
        return released
    }

    // MARK: Cancellation through a ticket

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

    mutating func cancel(_ ticket: TicketState, lane key: ObjectIdentifier) -> TicketCancellation {
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

    // MARK: Waiting on yourself

    /// The post in flight on `lane` while `ticket`'s post is queued behind it; `nil` if it is not
    /// queued there (in flight, ended, not yet accepted) or nothing is in flight.
    func postAhead(of ticket: TicketState, lane key: ObjectIdentifier) -> TicketState? {
        guard let lane = lanes[key], let inFlight = lane.inFlight, inFlight !== ticket,
            lane.pending.count(where: { $0.ticket === ticket }) > 0
        else { return nil }
        return inFlight
    }

    /// Removes `ticket`'s post from `lane`'s queue, if it is queued there: settle its ticket,
    /// then call ``endedWhileQueued(_:)`` (it counts as outstanding until then).
    mutating func removeQueued(_ ticket: TicketState, lane key: ObjectIdentifier) -> PendingPost? {
        guard let index = lanes.index(forKey: key) else { return nil }
        return lanes.values[index].pending.remove(where: { $0.ticket === ticket })
    }

    // MARK: Shutdown

    /// Starts the shutdown: from now on every post is refused; posters waiting for room are
    /// refused too. Calling it again changes nothing, but for `caller`: the lane of a post whose
    /// own delivery calls for the shutdown (its handler, its dead-letter sink), which the drain
    /// then does not wait for.
    mutating func shutdown(from caller: ObjectIdentifier? = nil) -> ShutdownStart {
        var start = ShutdownStart()
        if phase == .open {
            phase = .draining
            start.refused = roomLine.removeAll()
            counts.refused += start.refused.count
            start.began = shutdownLine.removeAll()
        }
        if let caller, report == nil, lanes[caller]?.inFlight != nil {
            callerLanes.insert(caller)
        }
        start.released.drainWaiters = drainWaitersIfDrained()
        start.released.closed = closeIfDone()
        return start
    }

    /// Ends the grace period: removes every queued post (each still counts as outstanding until
    /// ``endedWhileQueued(_:)``) and names the posts in flight, whose deliveries must be
    /// stopped; not the callers' own posts, which wait for the shutdown.
    mutating func endRemaining() -> Remaining {
        guard phase == .draining else { return Remaining() }
        var remaining = Remaining()
        for index in lanes.indices {
            while let post = lanes.values[index].pending.popFirst() { remaining.queued.append(post) }
            if let ticket = lanes.values[index].inFlight, !callerLanes.contains(lanes.keys[index]) {
                remaining.inFlight.append((ticket, lanes.values[index].delivery))
            }
        }
        return remaining
    }

    /// Once drained: removes the posts queued behind the callers' own posts, which cannot be
    /// delivered before those end (each still counts as outstanding until
    /// ``endedWhileQueued(_:)``, and ends early).
    mutating func takeQueuedBehindCallers() -> [PendingPost] {
        var queued: [PendingPost] = []
        for key in callerLanes {
            guard let index = lanes.index(forKey: key) else { continue }
            while let post = lanes.values[index].pending.popFirst() { queued.append(post) }
        }
        return queued
    }

    /// Makes the report, the first time the drain is complete: the counts so far, with the
    /// callers' posts still running as ``ShutdownReport/inProgress``. Later calls return it
    /// unchanged. `closed` when the office closed with it (nothing is outstanding: finish the
    /// observation streams).
    mutating func makeReport() -> (report: ShutdownReport, closed: Bool) {
        if let report { return (report, false) }
        var made = counts
        made.inProgress = outstanding
        report = made
        return (made, closeIfDone())
    }

    /// The counts so far, before the report is made (for a call made from inside the shutdown's
    /// own endings), or the report.
    var countsSoFar: ShutdownReport { report ?? counts }

    /// A post removed from its queue (by its ticket, or by ``endRemaining()``) has been settled.
    mutating func endedWhileQueued(_ settlement: TicketState.Settlement) -> Released {
        postEnded(settlement)
    }

    /// The drain's waiters, once everything the drain waits for has ended.
    private mutating func drainWaitersIfDrained() -> [DrainLine.Waiter] {
        guard phase == .draining, isDrained else { return [] }
        return drainLine.removeAll()
    }

    /// Closes the office once its report is made and nothing is outstanding; returns whether it
    /// closed now.
    private mutating func closeIfDone() -> Bool {
        guard phase == .draining, report != nil, outstanding == 0 else { return false }
        phase = .closed
        return true
    }
}

extension Outcome {
    /// Whether a system's shutdown ended this event.
    var wasEndedByShutdown: Bool {
        if case .cancelled(let stop) = self { return stop.reason == .shutdown }
        return false
    }
}

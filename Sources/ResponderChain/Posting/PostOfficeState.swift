/// The state machine behind ``PostOffice``: the per-sender queues ("lanes"), the count of
/// outstanding posts against the ``PostingLimit``, and the posters waiting for room.
///
/// A pure value: it never runs user code, starts tasks or resumes continuations. Each transition
/// returns what its caller (``PostOffice``, which holds it in a `Locked`) must do once outside
/// the lock: deliver a post, start a lane's delivery task, resume waiting posters.
///
/// ```
///  post ──room?──▶ lane.pending ──(lane idle: start delivery)──▶ in flight ──▶ finished
///    │ no room: reject, or wait ─────(room freed, first come first served)──▲
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

    /// A poster waiting for room.
    struct Waiter {
        let id: UInt64
        let lane: ObjectIdentifier
        let post: PendingPost
        let continuation: CheckedContinuation<Admission, Never>
    }

    /// How a waiting poster's wait ended.
    enum Admission: Sendable {
        case accepted
        case cancelled
    }

    /// What ``post(_:lane:overLimit:)`` decided.
    enum PostDecision {
        /// Queued; when `startDelivery`, the lane was idle and the caller must start its task.
        case accepted(startDelivery: Bool)
        /// Full, and the policy rejects.
        case rejected
        /// Full, and the policy suspends: call ``suspend(_:)``.
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

    /// Posters that a transition admitted, and lanes whose delivery must start.
    struct Admitted {
        var waiters: [Waiter] = []
        var lanesToStart: [ObjectIdentifier] = []
    }

    let limit: PostingLimit
    private var lanes: [ObjectIdentifier: Lane] = [:]
    private var waiters = FIFOBuffer<Waiter>()
    private var nextWaiterID: UInt64 = 0
    private(set) var outstanding = 0
    private(set) var peak = 0

    init(limit: PostingLimit) {
        self.limit = limit
    }

    var suspendedCount: Int { waiters.count }

    private var hasRoom: Bool { outstanding < limit.maxOutstanding && waiters.isEmpty }

    // MARK: Posting

    /// Accepts `post` into `lane` if there is room (or `overLimit`: a post made while delivering).
    mutating func post(_ post: PendingPost, lane: ObjectIdentifier, overLimit: Bool) -> PostDecision {
        if overLimit || hasRoom {
            return .accepted(startDelivery: enqueue(post, lane: lane))
        }
        switch limit.policy {
        case .reject: return .rejected
        case .suspend: return .mustWait
        }
    }

    /// Registers a poster that must wait, unless room appeared meanwhile.
    /// - Returns: `nil` if the poster now waits; otherwise it is accepted at once, and
    ///   `startDelivery` says whether its lane must be started.
    mutating func suspend(
        lane: ObjectIdentifier,
        post: PendingPost,
        continuation: CheckedContinuation<Admission, Never>
    ) -> (id: UInt64, startDelivery: Bool?) {
        nextWaiterID += 1
        if hasRoom {
            return (nextWaiterID, enqueue(post, lane: lane))
        }
        waiters.append(Waiter(id: nextWaiterID, lane: lane, post: post, continuation: continuation))
        return (nextWaiterID, nil)
    }

    /// Removes a waiting poster whose task was cancelled; `nil` if it was admitted already.
    mutating func cancelWaiter(id: UInt64) -> Waiter? {
        waiters.remove { $0.id == id }
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

    /// The next step of `lane`'s delivery task, after `finished` (the post it just delivered,
    /// if any) is done.
    mutating func nextStep(
        lane key: ObjectIdentifier,
        after finished: TicketState?
    ) -> (step: DeliveryStep, admitted: Admitted) {
        var admitted = Admitted()
        if finished != nil {
            outstanding -= 1
            lanes[key]?.inFlight = nil
            admitted = admitWaiters()
        }
        guard var lane = lanes[key] else { return (.finished, admitted) }
        if lane.retiring {
            lane.retiring = false
            lane.delivery = nil
            if lane.pending.isEmpty {
                lanes[key] = nil
                return (.retire(successor: false), admitted)
            }
            lanes[key] = lane
            return (.retire(successor: true), admitted)
        }
        guard let post = lane.pending.popFirst() else {
            lanes[key] = nil
            return (.finished, admitted)
        }
        lane.inFlight = post.ticket
        lanes[key] = lane
        return (.deliver(post), admitted)
    }

    /// Hands the room freed by finished posts to waiting posters, first come first served, once
    /// there is room for a batch (``PostingLimit/resumeBatch``): a poster resumed for a single
    /// slot would suspend again at its next post, paying a wake-up per event.
    private mutating func admitWaiters() -> Admitted {
        var admitted = Admitted()
        guard outstanding <= limit.maxOutstanding - limit.resumeBatch else { return admitted }
        while outstanding < limit.maxOutstanding, let waiter = waiters.popFirst() {
            if enqueue(waiter.post, lane: waiter.lane) {
                admitted.lanesToStart.append(waiter.lane)
            }
            admitted.waiters.append(waiter)
        }
        return admitted
    }

    // MARK: Cancellation through a ticket

    /// What cancelling a ticket requires.
    enum TicketCancellation {
        /// The post is being delivered: cancel this task (outside the lock) to wake its handler.
        case interruptDelivery(Task<Void, Never>?)
        /// The post was still queued and has been removed: finish its ticket as cancelled.
        case removedFromQueue(PendingPost, Admitted)
        /// The post has finished already (or was never queued).
        case none
    }

    mutating func cancel(_ ticket: TicketState, lane key: ObjectIdentifier) -> TicketCancellation {
        guard var lane = lanes[key] else { return .none }
        if lane.inFlight === ticket {
            lane.retiring = true
            lanes[key] = lane
            return .interruptDelivery(lane.delivery)
        }
        guard let post = lane.pending.remove(where: { $0.ticket === ticket }) else { return .none }
        lanes[key] = lane
        outstanding -= 1
        return .removedFromQueue(post, admitWaiters())
    }
}

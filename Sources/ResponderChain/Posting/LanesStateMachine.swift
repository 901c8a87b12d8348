/// The post office's lanes: one first-in, first-out queue per ``LaneKey``, the post each lane is
/// delivering, the task delivering it, and the posts that released their lanes.
///
/// One of the three machines ``PostOfficeState`` composes (with ``AdmissionStateMachine`` and
/// ``ShutdownStateMachine``). It knows nothing of the limit or the shutdown: it queues what it is
/// given, says what a lane's task does next, and takes posts out of their queues when asked.
///
/// ```
///  queue ──(lane idle: .startDelivery)──▶ pending ──nextDeliveryStep()──▶ in flight
///                                                                          │ deliveryEnded()
///                                     release() ──▶ detached ──────────────┤
///                                                                          ▼
///                                     nextDeliveryStep(): next post, or the lane is removed
/// ```
///
/// A pure value, like the others: each transition returns what its caller must do (start a
/// task, deliver a post, interrupt a delivery), and never runs anything itself.
struct LanesStateMachine {
    /// The queue of one lane: its pending posts in post order, the one being delivered, and the
    /// task delivering them.
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

    /// The lanes and the detached posts.
    fileprivate struct Lanes {
        var lanes: [LaneKey: Lane] = [:]
        /// The posts that released their lanes and have not ended yet, by ticket.
        var detached: [ObjectIdentifier: DetachedPost] = [:]
    }

    private enum State {
        /// Holding lanes (possibly none).
        case active(Lanes)
        /// The office has closed: nothing is outstanding, and nothing will be queued again.
        case closed
        /// Held only inside a transition, while the payload of the real case is changed in place
        /// (without it, the payload would be shared with the enum and its lanes copied).
        case modifying
    }

    /// What ``queue(_:lane:)`` did.
    enum QueueAction {
        /// The lane was idle: the caller must start its delivery task (and ``attach(_:to:)`` it).
        case startDelivery
        /// The lane's task is running and will reach the post.
        case queued
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

    /// What ``deliveryEnded(_:lane:)`` found.
    enum DeliveryEndAction {
        /// The post was its lane's post in flight: the lane's task goes on with its next step.
        case endedOnLane
        /// The post had released its lane: its task delivers nothing more
        /// (``DeliveryStep/retire(successor:)`` without a successor).
        case endedDetached
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

    /// What cancelling a ticket requires.
    enum TicketCancellation {
        /// The post is being delivered: cancel this task (outside the lock) to wake its handler.
        case interruptDelivery(Task<Void, Never>?)
        /// The post was still queued and has been removed: settle its ticket as cancelled, then
        /// end it (it counts as outstanding until then).
        case removedFromQueue(PendingPost)
        /// The post has finished already (or was never queued).
        case none
    }

    /// What ``endRemaining(sparingLanes:sparingDetached:)`` took away when the grace period ended.
    struct Remaining {
        /// Queued posts, removed from their lanes: settle each as cancelled by the shutdown,
        /// then end it.
        var queued: [PendingPost] = []
        /// Posts being delivered: set their signal to the shutdown and cancel their tasks.
        var inFlight: [(ticket: TicketState, delivery: Task<Void, Never>?)] = []
    }

    private var state = State.active(Lanes())

    // MARK: Reading

    /// Whether the post `id` is being delivered: in flight on its lane, or detached from it.
    func isDelivering(_ id: EventID) -> Bool {
        guard case .active(let lanes) = state else { return false }
        return lanes.lanes.values.contains { $0.inFlight?.eventID == id }
            || lanes.detached.values.contains { $0.ticket.eventID == id }
    }

    /// Whether `ticket`'s post is the one `lane` is delivering (so not released).
    func isInFlight(_ ticket: TicketState, lane key: LaneKey) -> Bool {
        guard case .active(let lanes) = state else { return false }
        return lanes.lanes[key]?.inFlight === ticket
    }

    /// The post `lane` is delivering, if any.
    func inFlight(on key: LaneKey) -> TicketState? {
        guard case .active(let lanes) = state else { return nil }
        return lanes.lanes[key]?.inFlight
    }

    /// Whether `ticket`'s post released its lane and has not ended yet.
    func isDetached(_ ticket: TicketState) -> Bool {
        guard case .active(let lanes) = state else { return false }
        return lanes.detached[ObjectIdentifier(ticket)] != nil
    }

    /// The post in flight on `lane` while `ticket`'s post is queued behind it; `nil` if it is not
    /// queued there (in flight, ended, not yet accepted) or nothing is in flight.
    func postAhead(of ticket: TicketState, lane key: LaneKey) -> TicketState? {
        guard case .active(let lanes) = state, let lane = lanes.lanes[key], let inFlight = lane.inFlight,
            inFlight !== ticket, lane.pending.count(where: { $0.ticket === ticket }) > 0
        else { return nil }
        return inFlight
    }

    /// The posts on `keys`' lanes: each one's post in flight and those queued behind it.
    func postCount(on keys: Set<LaneKey>) -> Int {
        guard !keys.isEmpty, case .active(let lanes) = state else { return 0 }
        return keys.reduce(0) { count, key in
            count + (lanes.lanes[key].map { ($0.inFlight == nil ? 0 : 1) + $0.pending.count } ?? 0)
        }
    }

    // MARK: Queueing and delivering

    /// Queues `post` at the back of `lane`.
    mutating func queue(_ post: PendingPost, lane key: LaneKey) -> QueueAction {
        // No `defer` to put the lanes back: it would copy them rather than move them.
        var lanes = takeActive()
        // One lookup of the key: the default lane is made (and the lane was idle) only when the
        // key has none.
        var wasIdle = false
        lanes.lanes[key, default: Self.idleLane(noting: &wasIdle)].pending.append(post)
        state = .active(consume lanes)
        return wasIdle ? .startDelivery : .queued
    }

    /// Records the task delivering `lane`.
    mutating func attach(_ task: Task<Void, Never>, to key: LaneKey) {
        modifyActive(ifClosed: ()) { lanes in lanes.lanes[key]?.delivery = task }
    }

    /// The post `delivered` (its ticket settled) has ended: it is no longer `lane`'s post in
    /// flight, or no longer detached if it had released its lane.
    mutating func deliveryEnded(_ delivered: TicketState.Settlement, lane key: LaneKey) -> DeliveryEndAction {
        modifyActive(ifClosed: .endedOnLane) { lanes in
            // One check of an empty table on the common path.
            if !lanes.detached.isEmpty,
                lanes.detached.removeValue(forKey: ObjectIdentifier(delivered.ticket)) != nil
            {
                return .endedDetached
            }
            lanes.lanes[key]?.inFlight = nil
            return .endedOnLane
        }
    }

    /// What `lane`'s task does next, its post in flight (if any) having ended
    /// (``deliveryEnded(_:lane:)``).
    mutating func nextDeliveryStep(lane key: LaneKey) -> DeliveryStep {
        modifyActive(ifClosed: .finished) { lanes in lanes.step(lane: key) }
    }

    /// Detaches `ticket`'s post, `lane`'s post in flight, from its lane, and retires the lane's
    /// task at once (see ``nextDeliveryStep(lane:)``): the post stays outstanding and goes on in
    /// its task to its outcome, while the lane's later posts are delivered by a fresh task.
    mutating func release(_ ticket: TicketState, lane key: LaneKey) -> LaneRelease {
        modifyActive(ifClosed: .refused) { lanes in lanes.release(ticket, lane: key) }
    }

    /// Cancels `ticket`'s post: interrupts its delivery (retiring its lane's task) or takes it
    /// out of its queue.
    mutating func cancel(_ ticket: TicketState, lane key: LaneKey) -> TicketCancellation {
        modifyActive(ifClosed: .none) { lanes in lanes.cancel(ticket, lane: key) }
    }

    /// Removes `ticket`'s post from `lane`'s queue, if it is queued there.
    mutating func removeQueued(_ ticket: TicketState, lane key: LaneKey) -> PendingPost? {
        modifyActive(ifClosed: nil) { lanes in
            guard let index = lanes.lanes.index(forKey: key) else { return nil }
            return lanes.lanes.values[index].pending.remove(where: { $0.ticket === ticket })
        }
    }

    // MARK: Emptying

    /// Takes every queued post out of its queue, on every lane or only on `keys`' lanes, in
    /// lane order.
    mutating func takeQueued(on keys: Set<LaneKey>? = nil) -> [PendingPost] {
        modifyActive(ifClosed: []) { lanes in
            var queued: [PendingPost] = []
            if let keys {
                for key in keys {
                    guard let index = lanes.lanes.index(forKey: key) else { continue }
                    while let post = lanes.lanes.values[index].pending.popFirst() { queued.append(post) }
                }
            } else {
                for index in lanes.lanes.indices {
                    while let post = lanes.lanes.values[index].pending.popFirst() { queued.append(post) }
                }
            }
            return queued
        }
    }

    /// Takes every queued post out of its queue and names the posts in flight, on their lanes or
    /// detached, but for those of `sparedLanes` and `sparedDetached` (the shutdown's callers).
    mutating func endRemaining(
        sparingLanes sparedLanes: Set<LaneKey>, sparingDetached sparedDetached: Set<ObjectIdentifier>
    ) -> Remaining {
        modifyActive(ifClosed: Remaining()) { lanes in
            var remaining = Remaining()
            for index in lanes.lanes.indices {
                while let post = lanes.lanes.values[index].pending.popFirst() {
                    remaining.queued.append(post)
                }
                if let ticket = lanes.lanes.values[index].inFlight,
                    !sparedLanes.contains(lanes.lanes.keys[index])
                {
                    remaining.inFlight.append((ticket, lanes.lanes.values[index].delivery))
                }
            }
            for (key, post) in lanes.detached where !sparedDetached.contains(key) {
                remaining.inFlight.append((post.ticket, post.delivery))
            }
            return remaining
        }
    }

    /// The office has closed: the lanes are dropped (nothing is outstanding in them).
    mutating func close() {
        state = .closed
    }

    // MARK: Helpers

    /// A new, empty lane, for a key that had none: sets `wasIdle`.
    private static func idleLane(noting wasIdle: inout Bool) -> Lane {
        wasIdle = true
        return Lane()
    }

    /// Runs `body` on the lanes, moved out of ``state`` and back again (see ``takeActive()``), and
    /// returns what it returns; returns `closed` without running it once the office has closed.
    @inline(__always)
    private mutating func modifyActive<Result>(
        ifClosed closed: @autoclosure () -> Result, _ body: (inout Lanes) -> Result
    ) -> Result {
        guard case .active = state else { return closed() }
        var lanes = takeActive()
        let result = body(&lanes)
        state = .active(consume lanes)
        return result
    }

    /// Moves the lanes out of ``state``, leaving ``State/modifying`` there until the caller puts
    /// them back. A move, not a copy: binding the payload with `case .active(var lanes)` would
    /// retain every buffer of the office and release it again, at each post.
    private mutating func takeActive() -> Lanes {
        var taken = State.modifying
        swap(&taken, &state)
        guard case .active(let lanes) = consume taken else {
            preconditionFailure("the lanes are closed")
        }
        return lanes
    }
}

extension LanesStateMachine.Lanes {
    /// What `lane`'s task does next, its post in flight (if any) having ended.
    mutating func step(lane key: LaneKey) -> LanesStateMachine.DeliveryStep {
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
    mutating func release(_ ticket: TicketState, lane key: LaneKey) -> LanesStateMachine.LaneRelease {
        guard let index = lanes.index(forKey: key), lanes.values[index].inFlight === ticket else {
            return .refused
        }
        detached[ObjectIdentifier(ticket)] = LanesStateMachine.DetachedPost(
            ticket: ticket, delivery: lanes.values[index].delivery)
        lanes.values[index].inFlight = nil
        lanes.values[index].retiring = true
        guard case .retire(let successor) = step(lane: key) else {
            preconditionFailure("a retiring lane retires its task")
        }
        return .released(successor: successor)
    }

    mutating func cancel(_ ticket: TicketState, lane key: LaneKey) -> LanesStateMachine.TicketCancellation {
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

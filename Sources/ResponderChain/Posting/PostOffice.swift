import Synchronization

/// The posted-event queues of one ``EventSystem``: one FIFO lane per sender, each drained by a
/// single task that delivers its posts one after the other, with direct hops inside each send.
///
/// That is what keeps post order at every responder (a post is delivered only after the previous
/// post of the same sender has finished, even if its handlers suspended), for the price of one
/// task per busy sender rather than a mailbox and a task per responder. A lane exists only while
/// it has posts; its task ends when it is empty. A post whose handler releases its lane
/// (``EventContext/releaseSenderLane()``) goes on in its task alone, and a fresh task takes the
/// lane over, as after a cancelled post.
///
/// A lane's task is detached from the poster that started it: it inherits none of its task-local
/// values (tracing is captured per post, at post time), so nothing a poster's task carries, such
/// as a one-at-a-time responder's hold, leaks into the delivery of later, unrelated posts.
///
/// The rules live in ``PostOfficeState`` (admission, lanes and shutdown, each its own machine);
/// this class holds it in a `Locked` and carries out the actions its transitions return: it starts the delivery tasks, hands the machine the
/// continuations of the tasks that must wait and resumes the ones it gives back, outside the
/// lock, and ends the posts the machine takes out of their queues (see PostOffice+Undelivered).
final class PostOffice: Sendable {
    private let state: Locked<PostOfficeState>
    /// The system's observation streams, finished when the office closes.
    private let observers: EventObservers
    /// Who waits for whom among the system's posts and one-at-a-time responders.
    let waitForGraph = WaitForGraph()

    /// The delivery running in the current task, if any: posts made by its handlers are accepted
    /// over the limit (see ``EventSystem/PostingLimit``), but only while that delivery runs.
    @TaskLocal private static var delivery: DeliveryStamp?

    /// The office whose ``shutDown(until:system:)`` runs in the current task: a call made from
    /// inside its own endings (a dead-letter sink it delivers to) must not wait for itself.
    @TaskLocal private static var shuttingDown: ObjectIdentifier?

    /// The ticket of the post whose delivery runs in the current task (its handlers, or a task
    /// they started while it runs), if any.
    static var runningDelivery: TicketState? {
        guard let delivery, delivery.isRunning else { return nil }
        return delivery.ticket
    }

    /// The posts stored or carrying an idempotency key that the office holds.
    let ledger = PostLedger()
    /// The writer to the system's store; `nil` for a system that keeps its posts in memory.
    let writer: StoreWriter?

    /// The consumer of the system's shared store; `nil` unless the store is shared.
    let consumer: SharedConsumer?

    init(limit: EventSystem.PostingLimit, observers: EventObservers, storage: EventSystem.Storage = .memory) {
        self.state = Locked(PostOfficeState(limit: limit))
        self.observers = observers
        switch storage {
        case .memory:
            self.writer = nil
            self.consumer = nil
        case .store(let store):
            self.writer = StoreWriter(store: store)
            self.consumer = nil
        case .shared(let store):
            let writer = StoreWriter(shared: store)
            self.writer = writer
            self.consumer = SharedConsumer(store: store, writer: writer)
        }
    }

    var statistics: (outstanding: Int, peak: Int, suspended: Int) {
        state.withLock { $0.statistics }
    }

    /// Whether the post `id` is being delivered (see ``PostOfficeState/isDelivering(_:)``).
    func isDelivering(_ id: EventID) -> Bool {
        state.withLock { $0.isDelivering(id) }
    }

    /// Whether the office is shutting down or has shut down.
    var isShuttingDown: Bool { state.withLock { $0.isShuttingDown } }

    // MARK: Posting

    /// Queues `post` on `lane`, waiting for room if the limit is reached and the policy
    /// suspends; returns once it is accepted, or once it has ended rejected. `isolation` is the
    /// poster's: the lane's task runs there if this post starts it.
    nonisolated(nonsending) func accept(
        _ post: PendingPost, lane: LaneKey, isolation: (any Actor)?, system: EventSystem
    ) async {
        let overLimit = Self.delivery?.isRunning(in: self) == true
        let action = state.withLock { state in
            let action = state.post(post, lane: lane, overLimit: overLimit)
            if case .accepted(startDelivery: true) = action {
                startDelivery(of: lane, isolation: isolation, system: system, in: &state)
            }
            return action
        }
        switch action {
        case .accepted:
            return
        case .rejected(let reason):
            await Self.reject(post, reason: reason, system: system)
        case .mustWait(let id):
            let waiting = PostOfficeState.WaitingPost(lane: lane, post: post, isolation: isolation)
            switch await waitForRoom(id, waiting, system: system) {
            case .accepted: return
            case .cancelled: await Self.reject(post, reason: .posterCancelled, system: system)
            case .shuttingDown: await Self.reject(post, reason: .shuttingDown, system: system)
            }
        }
    }

    /// Suspends the poster `id` until its post is queued, it is cancelled, or the shutdown
    /// refuses it.
    private nonisolated(nonsending) func waitForRoom(
        _ id: WaiterID, _ waiting: PostOfficeState.WaitingPost, system: EventSystem
    ) async -> PostOfficeState.Admission {
        await withTaskCancellationHandler {
            await withCheckedContinuation {
                (continuation: CheckedContinuation<PostOfficeState.Admission, Never>) in
                let suspension = state.withLock { state in
                    let suspension = state.suspendPoster(id, waiting, continuation: continuation)
                    if case .resume(.accepted, startDelivery: true) = suspension {
                        startDelivery(
                            of: waiting.lane, isolation: waiting.isolation, system: system, in: &state)
                    }
                    return suspension
                }
                if case .resume(let admission, _) = suspension {
                    continuation.resume(returning: admission)
                }
            }
        } onCancel: {
            state.withLock { $0.cancelPoster(id) }?.resume(returning: .cancelled)
        }
    }

    // MARK: Delivery

    /// Starts the task that delivers `lane`'s posts. Called under the lock, so that the task's
    /// handle is recorded before anyone can look for it; the task itself starts elsewhere.
    ///
    /// The task holds `system` (this office's) while the lane has posts: the posts do not, and
    /// their tickets name it weakly.
    private func startDelivery(
        of lane: LaneKey,
        isolation: (any Actor)?,
        system: EventSystem,
        in state: inout PostOfficeState
    ) {
        // Detached: the lane must not inherit the task-locals of whoever happened to start it.
        let task = Task.detached(priority: Task.currentPriority) {
            await self.deliver(lane: lane, system: system, isolation: isolation)
        }
        state.attach(task, to: lane)
    }

    /// The delivery loop of one lane, on the isolation of the poster that started it.
    private func deliver(lane: LaneKey, system: EventSystem, isolation: isolated (any Actor)?) async {
        let deliveries = LaneDeliveries(office: self, lane: lane, system: system, isolation: isolation)
        var ended: (ticket: TicketState, outcome: Outcome)?
        while true {
            // Taken out of the lock through locals, not returned: a returned post would be
            // copied on its way out (a retain and a release of each of its references).
            var step = PostOfficeState.DeliveryStep.finished
            var released = PostOfficeState.Released()
            var delivered: TicketState.Settlement?
            state.withLock { state in
                // The ticket takes its outcome as the post stops counting as outstanding, under
                // the office's lock: whoever sees the outcome (awaiting the ticket or not) finds
                // the post's room free. (A ticket's own lock is taken inside the office's, never
                // the other way round.)
                if let (ticket, outcome) = ended.take() { delivered = ticket.settle(outcome) }
                (step, released) = state.nextStep(lane: lane, after: delivered)
                startLanes(released, system: system, in: &state)
                if case .retire(successor: true) = step {
                    startDelivery(of: lane, isolation: isolation, system: system, in: &state)
                }
            }
            delivered?.resume()
            resume(released)
            guard case .deliver(let post) = consume step else { return }
            let stamp = deliveries.begin(post.ticket)
            let outcome = await Self.$delivery.withValueKeepingIsolation(stamp) {
                await Router.send(
                    post.event, from: post.entry, source: post.source, options: post.options,
                    signal: post.ticket.signal, trace: post.capture(in: system), depth: post.depth,
                    // Only a system with a store has stored posts (whose tickets hold their
                    // ledger entries from the start): a plain post's ticket is not read here.
                    retrying: writer == nil ? nil : retrying(of: post))
            }
            deliveries.end()
            ended = (post.ticket, outcome)
        }
    }

    private func startLanes(
        _ released: PostOfficeState.Released, system: EventSystem, in state: inout PostOfficeState
    ) {
        for (lane, isolation) in released.lanesToStart {
            startDelivery(of: lane, isolation: isolation, system: system, in: &state)
        }
    }

    /// Resumes what a transition released, outside the lock, and finishes the observation
    /// streams once the office has closed: every post it held has ended and been observed.
    private func resume(_ released: PostOfficeState.Released) {
        for poster in released.admitted {
            poster.resume(returning: .accepted)
        }
        for waiter in released.drainWaiters {
            waiter.resume()
        }
        if released.closed { observers.close() }
    }

    // MARK: Cancellation

    /// Cancels a ticket's post: removed from its queue if it is still waiting there (its outcome
    /// is then `cancelled` before hop 1), or interrupted if it is being delivered. `system` is
    /// the office's.
    func cancel(_ ticket: TicketState, lane: LaneKey, system: EventSystem) {
        switch state.withLock({ $0.cancel(ticket, lane: lane) }) {
        case .interruptDelivery(let task):
            // Outside the lock: cancellation handlers run synchronously and may post.
            task?.cancel()
        case .removedFromQueue(let post):
            endedWhileQueued(post.ticket, with: Self.endQueuedByTicket(post, system: system), system: system)
        case .none:
            break
        }
    }

    /// Abandons a ticket's post: as ``cancel(_:lane:system:)``, but a post removed from its
    /// queue is ended dead-lettered (which may suspend, for the sink).
    nonisolated(nonsending) func abandon(_ ticket: TicketState, lane: LaneKey, system: EventSystem)
        async
    {
        switch state.withLock({ $0.cancel(ticket, lane: lane) }) {
        case .interruptDelivery(let task):
            task?.cancel()
        case .removedFromQueue(let post):
            endedWhileQueued(
                post.ticket, with: await Self.endQueuedAbandoned(post, system: system), system: system)
        case .none:
            break
        }
    }

    // MARK: Releasing a lane

    /// Lets the lane delivering the post whose ticket has `signal` go on without it (see
    /// ``EventContext/releaseSenderLane()``): only from inside that post's running delivery, so
    /// that a nested send (its own signal) or a later task cannot release it by mistake.
    /// Returns whether this call released the lane.
    /// Whether the post whose cancellation signal is `signal` is being delivered in the current
    /// task by its lane, which it has not released: ``releaseLane(of:)`` would release it now.
    static func canReleaseLane(of signal: CancellationSignal) -> Bool {
        guard let delivery, delivery.ticket.signal === signal, delivery.isRunning else { return false }
        return delivery.lane.office.state.withLock {
            $0.isInFlight(delivery.ticket, lane: delivery.lane.lane)
        }
    }

    static func releaseLane(of signal: CancellationSignal) -> Bool {
        guard let delivery, delivery.ticket.signal === signal, delivery.isRunning else { return false }
        return delivery.lane.office.release(delivery.ticket, from: delivery.lane)
    }

    /// Detaches `ticket`'s post from the lane `deliveries` delivers, and starts the lane's new
    /// task if it still has posts. The post's own task goes on with it, and ends after it.
    private func release(_ ticket: TicketState, from deliveries: LaneDeliveries) -> Bool {
        // Always there: the lane's task, whose delivery runs, holds it.
        guard let system = deliveries.system else { return false }
        return state.withLock { state in
            switch state.release(ticket, lane: deliveries.lane) {
            case .refused:
                return false
            case .released(let successor):
                if successor {
                    startDelivery(
                        of: deliveries.lane, isolation: deliveries.isolation, system: system, in: &state)
                }
                return true
            }
        }
    }

    // MARK: Waiting on yourself

    /// The post in flight on `lane` while `ticket`'s post is queued behind it (see
    /// ``WaitForGraph``).
    func postAhead(of ticket: TicketState, lane: LaneKey) -> TicketState? {
        state.withLock { $0.postAhead(of: ticket, lane: lane) }
    }

    /// Takes `ticket`'s post out of its queue, if it is still there, and ends it rejected
    /// (``Outcome/Rejection/Reason/wouldDeadlock``): it would wait for the post ahead of it,
    /// whose handler waits for it.
    nonisolated(nonsending) func refuseQueued(
        _ ticket: TicketState, lane: LaneKey, system: EventSystem
    )
        async
    {
        guard let post = state.withLock({ $0.removeQueued(ticket, lane: lane) }) else { return }
        endedWhileQueued(
            post.ticket, with: await Self.endQueued(post, rejectedFor: .wouldDeadlock, system: system),
            system: system)
    }

    // MARK: Shutdown

    /// Whether the shutdown has begun; waits until it has.
    /// - Throws: `CancellationError` if the waiting task is cancelled first.
    nonisolated(nonsending) func waitUntilShuttingDown() async throws(CancellationError) {
        guard case .mustWait(let id) = state.withLock({ $0.waitForShutdown() }) else { return }
        let began = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                if let now = state.withLock({ $0.suspendShutdownWaiter(id, continuation: continuation) }) {
                    continuation.resume(returning: now)
                }
            }
        } onCancel: {
            state.withLock { $0.cancelShutdownWaiter(id) }?.resume(returning: false)
        }
        if !began { throw CancellationError() }
    }

    /// Refuses new posts, lets the outstanding ones finish until `deadline`, then ends the rest
    /// (see ``EventSystem/shutDown(gracePeriod:)``).
    ///
    /// Called from inside the delivery of one of this office's posts, the drain does not wait
    /// for that post (it waits for the drain) and ends the posts queued behind it, which cannot
    /// run before it ends; the report counts it ``EventSystem/ShutdownReport/inProgress``. Called from inside
    /// its own endings (a dead-letter sink the shutdown delivers to), it returns the counts so far
    /// at once.
    nonisolated(nonsending) func shutDown(until deadline: EventSystem.Instant, system: EventSystem)
        async -> EventSystem.ShutdownReport
    {
        if Self.shuttingDown == ObjectIdentifier(self) {
            return state.withLock { $0.countsSoFar }
        }
        let delivery = Self.delivery.flatMap { $0.isRunning ? $0 : nil }
        let caller = delivery?.lane.lane(in: self)
        let start = state.withLock {
            $0.shutdown(from: caller, ticket: caller == nil ? nil : delivery?.ticket)
        }
        for poster in start.refused { poster.resume(returning: .shuttingDown) }
        for waiter in start.began { waiter.resume(returning: true) }
        resume(start.released)
        if writer != nil {
            // With a store, what has not begun is kept there for the next start (or, in a
            // shared store, for the next consumer that claims it).
            consumer?.stop()
            for post in state.withLock({ $0.takeQueued() }) {
                endedWhileQueued(post.ticket, with: Self.endQueuedKept(post, system: system), system: system)
            }
            let unclaimed = ledger.takeAllUnclaimed()
            state.withLock { $0.keptUnclaimed(unclaimed.count) }
            for post in unclaimed { post.ticket.finish(Self.endQueuedKept(post, system: system)) }
        }
        return await Self.$shuttingDown.withValue(ObjectIdentifier(self)) {
            await drain(until: deadline, system: system)
        }
    }

    /// The drain of ``shutDown(until:system:)``: waits for the outstanding posts until
    /// `deadline`, ends the rest, then makes the report.
    private nonisolated(nonsending) func drain(until deadline: EventSystem.Instant, system: EventSystem)
        async -> EventSystem.ShutdownReport
    {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.waitUntilDrained()
                return true
            }
            group.addTask {
                // Ends early if the shutting-down task is cancelled: the grace period is over. A
                // test clock that fires the timer waits until what it ended has ended.
                try? await system.timers.sleep(until: deadline, for: .gracePeriod) {
                    await self.waitUntilDrained()
                }
                return false
            }
            if await group.next() == false {
                await endRemaining(system: system)
            }
            // Stops the timer if the drain came first; the drain's waiter ignores cancellation,
            // and the group waits for it before it returns.
            group.cancelAll()
        }
        // The posts queued behind the callers' own posts cannot run before those end.
        for post in state.withLock({ $0.takeQueuedBehindCallers() }) {
            endedWhileQueued(
                post.ticket, with: await Self.endQueuedByShutdown(post, system: system), system: system)
        }
        // Every end recorded so far is in the store before the report says so, and the keys
        // this system held in a shared store are free for other consumers at once.
        consumer?.releaseAll()
        await writer?.flush()
        let (report, closed) = state.withLock { $0.makeReport() }
        if closed { observers.close() }
        return report
    }

    /// Waits until everything the drain waits for has ended; ignores cancellation.
    private nonisolated(nonsending) func waitUntilDrained() async {
        guard case .mustWait(let id) = state.withLock({ $0.waitForDrain() }) else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if state.withLock({ $0.suspendDrainWaiter(id, continuation: continuation) }) {
                continuation.resume()
            }
        }
    }

    /// Ends what is still outstanding when the grace period is over: the queued posts at once,
    /// the ones in flight by cancelling their delivery with the shutdown as the reason.
    private nonisolated(nonsending) func endRemaining(system: EventSystem) async {
        let remaining = state.withLock { $0.endRemaining() }
        for (ticket, delivery) in remaining.inFlight {
            ticket.signal.cancel(.shutdown)
            delivery?.cancel()
        }
        for post in remaining.queued {
            endedWhileQueued(
                post.ticket, with: await Self.endQueuedByShutdown(post, system: system), system: system)
        }
    }

    /// A post removed from its queue has ended with `outcome`: its ticket holds it and the post
    /// stops counting as outstanding in one step (no one sees the outcome while the post still
    /// counts), then its waiters and whatever its room released are woken.
    private func endedWhileQueued(_ ticket: TicketState, with outcome: Outcome, system: EventSystem) {
        let (settlement, released) = state.withLock { state in
            let settlement = ticket.settle(outcome)
            let released = state.endedWhileQueued(settlement)
            startLanes(released, system: system, in: &state)
            return (settlement, released)
        }
        settlement.resume()
        resume(released)
    }
}

/// The deliveries of one lane's task, numbered, so that a post made by a handler can be
/// recognized as made *while its delivery runs* (and only then) by the stamp in its task-locals.
private final class LaneDeliveries: Sendable {
    /// The office, held while a stamp of its deliveries is: a lane's task holds it anyway.
    let office: PostOffice
    /// The lane's key in its office.
    let lane: LaneKey
    /// The office's system, and the isolation the lane's task runs on, for the task that takes
    /// the lane over when a post releases it. Weak: a task a handler started may keep a stamp
    /// long after, and the lane's task holds the system while it delivers.
    weak let system: EventSystem?
    let isolation: (any Actor)?
    /// The number of the delivery running now; 0 between deliveries.
    private let running = Atomic<UInt64>(0)
    private let count = Atomic<UInt64>(0)

    init(office: PostOffice, lane: LaneKey, system: EventSystem, isolation: (any Actor)?) {
        self.office = office
        self.lane = lane
        self.system = system
        self.isolation = isolation
    }

    /// The lane's key, if it belongs to `office`.
    func lane(in office: PostOffice) -> LaneKey? {
        self.office === office ? lane : nil
    }

    /// Numbers a new delivery, of `ticket`'s post, and marks it running.
    func begin(_ ticket: TicketState) -> DeliveryStamp {
        let number = count.add(1, ordering: .relaxed).newValue
        running.store(number, ordering: .releasing)
        return DeliveryStamp(lane: self, number: number, ticket: ticket)
    }

    /// Marks the running delivery finished: stamps of it no longer count.
    func end() {
        running.store(0, ordering: .releasing)
    }

    func isRunning(_ number: UInt64) -> Bool {
        running.load(ordering: .acquiring) == number
    }
}

/// What a delivery's task (and the tasks its handlers start) carries: which delivery it is.
private struct DeliveryStamp: Sendable {
    let lane: LaneDeliveries
    let number: UInt64
    /// The ticket of the post being delivered.
    let ticket: TicketState

    /// Whether this stamp's delivery is still running.
    var isRunning: Bool { lane.isRunning(number) }

    /// Whether this stamp's delivery, in `office`, is still running.
    func isRunning(in office: PostOffice) -> Bool {
        lane.office === office && lane.isRunning(number)
    }
}

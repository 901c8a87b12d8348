import Synchronization

/// The posted-event queues of one ``EventRouter``: one FIFO lane per sender, each drained by a
/// single task that delivers its posts one after the other, with direct hops inside each send.
///
/// That is what keeps post order at every responder (a post is delivered only after the previous
/// post of the same sender has finished, even if its handlers suspended), for the price of one
/// task per busy sender rather than a mailbox and a task per responder. A lane exists only while
/// it has posts; its task ends when it is empty.
///
/// The rules live in ``PostOfficeState``; this class holds it in a `Locked` (a `Mutex`), starts the delivery
/// tasks and resumes continuations outside the lock.
final class PostOffice: Sendable {
    private let state: Locked<PostOfficeState>

    /// The post office whose delivery task is running in the current task, if any: its handlers'
    /// own posts are accepted over the limit (see ``PostingLimit``).
    @TaskLocal private static var delivering: ObjectIdentifier?

    init(limit: PostingLimit) {
        self.state = Locked(PostOfficeState(limit: limit))
    }

    var statistics: (outstanding: Int, peak: Int, suspended: Int) {
        state.withLock { ($0.outstanding, $0.peak, $0.suspendedCount) }
    }

    // MARK: Posting

    /// Queues `post` on `lane`, waiting for room if the limit is reached and the policy
    /// suspends; returns once it is accepted, rejected, or its poster was cancelled while waiting.
    nonisolated(nonsending) func accept(_ post: PendingPost, lane: ObjectIdentifier, router: EventRouter)
        async
    {
        let overLimit = Self.delivering == ObjectIdentifier(self)
        let decision = state.withLock { state in
            let decision = state.post(post, lane: lane, overLimit: overLimit)
            if case .accepted(startDelivery: true) = decision {
                startDelivery(of: lane, isolation: post.isolation, in: &state)
            }
            return decision
        }
        switch decision {
        case .accepted:
            return
        case .rejected:
            let reason = Outcome.Rejection.Reason.limitReached(
                maxOutstanding: router.postingLimit.maxOutstanding)
            await Router.reject(post, reason: reason, router: router)
        case .mustWait:
            if await waitForRoom(post, lane: lane) == .cancelled {
                await Router.reject(post, reason: .posterCancelled, router: router)
            }
        }
    }

    private nonisolated(nonsending) func waitForRoom(_ post: PendingPost, lane: ObjectIdentifier) async
        -> PostOfficeState.Admission
    {
        let waiterID = Locked<UInt64?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let admitted = state.withLock { state -> PostOfficeState.Admission? in
                    // Checked under the lock: a cancellation after this point finds the waiter.
                    if Task.isCancelled { return .cancelled }
                    let (id, start) = state.suspend(lane: lane, post: post, continuation: continuation)
                    waiterID.withLock { $0 = id }
                    guard let start else { return nil }
                    if start { startDelivery(of: lane, isolation: post.isolation, in: &state) }
                    return .accepted
                }
                if let admitted { continuation.resume(returning: admitted) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                waiterID.withLock { $0 }.flatMap { state.cancelWaiter(id: $0) }
            }
            waiter?.continuation.resume(returning: .cancelled)
        }
    }

    // MARK: Delivery

    /// Starts the task that delivers `lane`'s posts. Called under the lock, so that the task's
    /// handle is recorded before anyone can look for it; the task itself starts elsewhere.
    private func startDelivery(
        of lane: ObjectIdentifier,
        isolation: (any Actor)?,
        in state: inout PostOfficeState
    ) {
        let task = Task { await self.deliver(lane: lane, isolation: isolation) }
        state.attach(task, to: lane)
    }

    /// The delivery loop of one lane, on the isolation of the poster that started it.
    private func deliver(lane: ObjectIdentifier, isolation: isolated (any Actor)?) async {
        await Self.$delivering.withValue(ObjectIdentifier(self)) {
            var finished: (ticket: TicketState, outcome: Outcome)?
            while true {
                let (step, admitted) = state.withLock { state in
                    let next = state.nextStep(lane: lane, after: finished?.ticket)
                    startLanes(next.admitted, in: &state)
                    if case .retire(successor: true) = next.step {
                        startDelivery(of: lane, isolation: isolation, in: &state)
                    }
                    return next
                }
                // The post no longer counts as outstanding by the time its outcome is seen.
                finished.map { $0.ticket.finish($0.outcome) }
                resume(admitted)
                guard case .deliver(let post) = step else { return }
                let outcome = await Router.send(
                    post.event, from: post.entry, source: post.source, options: post.options,
                    signal: post.ticket.signal, trace: post.capture)
                finished = (post.ticket, outcome)
            }
        }
    }

    private func startLanes(_ admitted: PostOfficeState.Admitted, in state: inout PostOfficeState) {
        for lane in admitted.lanesToStart {
            let isolation = admitted.waiters.first { $0.lane == lane }?.post.isolation
            startDelivery(of: lane, isolation: isolation, in: &state)
        }
    }

    private func resume(_ admitted: PostOfficeState.Admitted) {
        for waiter in admitted.waiters {
            waiter.continuation.resume(returning: .accepted)
        }
    }

    // MARK: Cancellation

    /// Cancels a ticket's post: removed from its queue if it is still waiting there (its outcome
    /// is then `cancelled` before hop 1), or interrupted if it is being delivered.
    func cancel(_ ticket: TicketState, lane: ObjectIdentifier) {
        let action = state.withLock { state in
            let action = state.cancel(ticket, lane: lane)
            if case .removedFromQueue(_, let admitted) = action {
                startLanes(admitted, in: &state)
            }
            return action
        }
        switch action {
        case .interruptDelivery(let task):
            // Outside the lock: cancellation handlers run synchronously and may post.
            task?.cancel()
        case .removedFromQueue(let post, let admitted):
            Router.cancelQueued(post)
            resume(admitted)
        case .none:
            break
        }
    }
}

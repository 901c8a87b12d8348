@testable import ResponderChain
import Testing

/// The post office's rules as a pure state machine, driven step by step: no task runs, every
/// transition's action is checked. A continuation handed to the machine is a real one, taken back
/// and resumed by the test itself.
@Suite("Post office state machine")
struct PostOfficeStateTests {
    struct Ping: Event { let number: Int }

    actor Sender: Responder {
        var next: (any Responder)? { nil }
    }

    let sender = Sender()
    let system = EventSystem()
    var lane: LaneKey { .sender(ObjectIdentifier(sender)) }

    func post(_ number: Int) -> PendingPost {
        PendingPost(
            event: Ping(number: number), entry: sender, source: .responder(sender), options: .default,
            capture: TraceCapture(
                Ping(number: number), from: .responder(sender), system: system, options: .default),
            ticket: TicketState(
                eventID: EventID(epoch: 0, sequence: UInt64(number)), system: system, lane: lane))
    }

    /// Settles the post's ticket as handled, as its delivery does before asking for its next step.
    func handled(_ post: PendingPost) -> TicketState.Settlement {
        let path = Outcome.Path(eventID: post.ticket.eventID, hops: 1, info: EventInfo())
        return post.ticket.settle(.handled(Outcome.Handled(path: path, stoppedAt: ResponderID(sender))))
    }

    /// Settles the post's ticket as cancelled by the shutdown.
    func endedByShutdown(_ post: PendingPost) -> TicketState.Settlement {
        let path = Outcome.Path(eventID: post.ticket.eventID, hops: 1, info: EventInfo())
        let stop = Outcome.Stop(
            path: path, responder: ResponderID(sender), hop: 1, whileHandling: true, reason: .shutdown)
        return post.ticket.settle(.cancelled(stop))
    }

    /// Hands the machine the continuation of poster `id`, about to wait with post `number`, and
    /// returns its answer and how the wait ended. A poster the machine keeps stays suspended
    /// while `whileSuspended` runs (which resumes whatever continuations the machine gives it),
    /// then is taken back as cancelled, so the test never waits.
    func arrive(
        _ id: WaiterID,
        _ number: Int,
        in state: inout PostOfficeState,
        whileSuspended: (inout PostOfficeState) -> Void = { _ in }
    ) async -> (answer: PostOfficeState.PosterSuspension, admission: PostOfficeState.Admission) {
        let waiting = PostOfficeState.WaitingPost(lane: lane, post: post(number), isolation: nil)
        var answer = PostOfficeState.PosterSuspension.suspended
        let admission = await withCheckedContinuation { continuation in
            answer = state.suspendPoster(id, waiting, continuation: continuation)
            switch answer {
            case .resume(let admission, _):
                continuation.resume(returning: admission)
            case .suspended:
                whileSuspended(&state)
                state.cancelPoster(id)?.resume(returning: .cancelled)
            }
        }
        return (answer, admission)
    }

    /// Posts `count` posts (numbered from 0) on the sender's lane of `state` and starts the
    /// lane's delivery: post 0 is in flight, the others are queued behind it. Returns the posts.
    func postWithTheFirstInFlight(_ count: Int, in state: inout PostOfficeState) -> [PendingPost] {
        let posts = (0..<count).map(post)
        for post in posts { _ = state.post(post, lane: lane, overLimit: false) }
        _ = state.nextStep(lane: lane, after: nil)
        return posts
    }

    /// The number of the post a step delivers, or `nil`.
    func delivered(_ step: PostOfficeState.DeliveryStep) -> Int? {
        guard case .deliver(let post) = step else { return nil }
        return (post.event as? Ping)?.number
    }

    @Test("a lane delivers its posts in post order, one at a time, and disappears when empty")
    func laneOrder() {
        var state = PostOfficeState(limit: .default)
        let posts = (0..<3).map(post)
        #expect(state.post(posts[0], lane: lane, overLimit: false) == .accepted(startDelivery: true))
        #expect(state.post(posts[1], lane: lane, overLimit: false) == .accepted(startDelivery: false))
        #expect(state.post(posts[2], lane: lane, overLimit: false) == .accepted(startDelivery: false))
        #expect(state.outstanding == 3)

        #expect(delivered(state.nextStep(lane: lane, after: nil).step) == 0)
        #expect(delivered(state.nextStep(lane: lane, after: handled(posts[0])).step) == 1)
        #expect(delivered(state.nextStep(lane: lane, after: handled(posts[1])).step) == 2)
        guard case .finished = state.nextStep(lane: lane, after: handled(posts[2])).step else {
            Issue.record("the lane did not finish")
            return
        }
        #expect(state.outstanding == 0)
        #expect(state.peak == 3)
        // The lane is gone: the next post starts a new delivery.
        #expect(state.post(post(3), lane: lane, overLimit: false) == .accepted(startDelivery: true))
    }

    @Test(
        "at the limit a post must wait or is rejected, as the policy says; a running delivery's own post goes over it",
        arguments: [EventSystem.PostingLimit.Policy.suspend, .reject])
    func limit(policy: EventSystem.PostingLimit.Policy) async {
        var state = PostOfficeState(limit: EventSystem.PostingLimit(maxOutstanding: 2, whenFull: policy))
        _ = state.post(post(0), lane: lane, overLimit: false)
        _ = state.post(post(1), lane: lane, overLimit: false)
        switch (policy, state.post(post(2), lane: lane, overLimit: false)) {
        case (.suspend, .mustWait(let id)):
            // Still no room when it arrives: it stays suspended.
            let (answer, admission) = await arrive(id, 2, in: &state) { state in
                #expect(state.statistics.suspended == 1)
            }
            #expect(answer == .suspended)
            #expect(admission == .cancelled)
            #expect(state.statistics.suspended == 0)
        case (.reject, .rejected(.limitReached(maxOutstanding: 2))):
            break
        case (_, let action):
            Issue.record("at the limit, \(policy) answered \(action)")
        }
        #expect(state.post(post(2), lane: lane, overLimit: true) == .accepted(startDelivery: false))
        #expect(state.outstanding == 3)
    }

    @Test(
        "a suspended poster is admitted, first come first served, once room is free: its post is queued before it resumes"
    )
    func waitingPosterAdmitted() async {
        var state = PostOfficeState(limit: EventSystem.PostingLimit(maxOutstanding: 1))
        let first = post(0)
        _ = state.post(first, lane: lane, overLimit: false)
        guard case .mustWait(let id) = state.post(post(1), lane: lane, overLimit: false) else {
            Issue.record("the poster at the limit was not told to wait")
            return
        }
        let (answer, admission) = await arrive(id, 1, in: &state) { state in
            #expect(delivered(state.nextStep(lane: lane, after: nil).step) == 0)
            let (step, released) = state.nextStep(lane: lane, after: handled(first))
            #expect(delivered(step) == 1)  // queued on its lane, delivered next
            #expect(released.admitted.count == 1)
            #expect(released.lanesToStart.isEmpty)  // the lane's task is still running
            for poster in released.admitted { poster.resume(returning: .accepted) }
        }
        #expect(answer == .suspended)
        #expect(admission == .accepted)
        #expect(state.outstanding == 1)
    }

    @Test(
        "a poster that chose to wait before the shutdown began is refused when it arrives, or ends cancelled if it was cancelled first",
        arguments: [false, true])
    func lateArrival(cancelledFirst: Bool) async {
        var state = PostOfficeState(limit: EventSystem.PostingLimit(maxOutstanding: 1))
        _ = state.post(post(0), lane: lane, overLimit: false)
        guard case .mustWait(let id) = state.post(post(1), lane: lane, overLimit: false) else {
            Issue.record("the poster at the limit was not told to wait")
            return
        }
        if cancelledFirst { #expect(state.cancelPoster(id) == nil) }  // not suspended yet
        #expect(state.shutdown().refused.isEmpty)

        let (answer, admission) = await arrive(id, 1, in: &state)
        let expected: PostOfficeState.Admission = cancelledFirst ? .cancelled : .shuttingDown
        #expect(answer == .resume(expected, startDelivery: false))
        #expect(admission == expected)
        #expect(state.countsSoFar.refused == (cancelledFirst ? 0 : 1))
        #expect(state.outstanding == 1)
    }

    @Test(
        "cancelling a queued post frees its room at once; cancelling the one in flight retires its lane's task"
    )
    func ticketCancellation() {
        var state = PostOfficeState(limit: .default)
        let posts = postWithTheFirstInFlight(3, in: &state)

        guard case .removedFromQueue(let removed) = state.cancel(posts[1].ticket, lane: lane) else {
            Issue.record("the queued post was not removed")
            return
        }
        #expect((removed.event as? Ping)?.number == 1)
        #expect(state.outstanding == 3)  // until its ticket is settled
        _ = state.endedWhileQueued(handled(removed))
        #expect(state.outstanding == 2)

        guard case .interruptDelivery = state.cancel(posts[0].ticket, lane: lane) else {
            Issue.record("the delivery was not interrupted")
            return
        }
        guard case .retire(successor: true) = state.nextStep(lane: lane, after: handled(posts[0])).step else {
            Issue.record("the cancelled task did not hand the lane on")
            return
        }
        #expect(delivered(state.nextStep(lane: lane, after: nil).step) == 2)
    }

    @Test("a shutdown with nothing outstanding closes at once; every later post is refused and counted")
    func shutdownWhenIdle() {
        var state = PostOfficeState(limit: .default)
        let start = state.shutdown()
        #expect(start.refused.isEmpty)
        #expect(state.isDrained)
        #expect(state.post(post(0), lane: lane, overLimit: true) == .rejected(.shuttingDown))
        #expect(state.post(post(1), lane: lane, overLimit: false) == .rejected(.shuttingDown))
        #expect(state.countsSoFar == EventSystem.ShutdownReport(finished: 0, endedEarly: 0, refused: 2))
        #expect(state.outstanding == 0)
    }

    @Test("while draining, posts that finish count as finished, and the last one closes the office")
    func drainFinishes() {
        var state = PostOfficeState(limit: .default)
        let posts = postWithTheFirstInFlight(2, in: &state)
        _ = state.shutdown()
        #expect(state.phase == .draining)

        _ = state.nextStep(lane: lane, after: handled(posts[0]))
        #expect(!state.isDrained)
        _ = state.nextStep(lane: lane, after: handled(posts[1]))
        #expect(state.isDrained)
        #expect(state.countsSoFar == EventSystem.ShutdownReport(finished: 2, endedEarly: 0, refused: 0))
    }

    @Test(
        "when the grace period ends, queued posts are taken out and the one in flight is named; each counts as ended early"
    )
    func endRemaining() {
        var state = PostOfficeState(limit: .default)
        let posts = postWithTheFirstInFlight(3, in: &state)
        _ = state.shutdown()

        let remaining = state.endRemaining()
        #expect(remaining.queued.compactMap { ($0.event as? Ping)?.number } == [1, 2])
        #expect(remaining.inFlight.map { ObjectIdentifier($0.ticket) } == [ObjectIdentifier(posts[0].ticket)])
        #expect(state.outstanding == 3)  // until each has its outcome

        _ = state.endedWhileQueued(endedByShutdown(remaining.queued[0]))
        _ = state.endedWhileQueued(endedByShutdown(remaining.queued[1]))
        #expect(!state.isDrained)
        guard case .finished = state.nextStep(lane: lane, after: endedByShutdown(posts[0])).step else {
            Issue.record("the lane did not finish")
            return
        }
        #expect(state.isDrained)
        #expect(state.countsSoFar == EventSystem.ShutdownReport(finished: 0, endedEarly: 3, refused: 0))
    }

    /// The report and the tickets cannot disagree: a post is counted by the outcome its ticket
    /// holds, which is the first one recorded, and it stops counting as outstanding only through
    /// its ticket's settlement (so the drain never completes ahead of a ticket's outcome).
    @Test("while draining, a post is counted by the outcome its ticket holds, the first one recorded")
    func countedByTheTicketsOutcome() throws {
        var state = PostOfficeState(limit: .default)
        let posts = postWithTheFirstInFlight(2, in: &state)
        _ = state.shutdown()

        _ = endedByShutdown(posts[0])  // the shutdown's stop reached the ticket first
        let late = handled(posts[0])  // the delivery's own outcome comes second and loses
        #expect(late.outcome.wasEndedByShutdown)
        #expect(try #require(posts[0].ticket.finishedOutcome).wasEndedByShutdown)
        _ = state.nextStep(lane: lane, after: late)
        #expect(state.countsSoFar == EventSystem.ShutdownReport(finished: 0, endedEarly: 1, refused: 0))
        #expect(!state.isDrained)

        _ = state.nextStep(lane: lane, after: handled(posts[1]))
        #expect(state.isDrained)
        #expect(state.countsSoFar == EventSystem.ShutdownReport(finished: 1, endedEarly: 1, refused: 0))
    }

    @Test(
        "a shutdown called from a post's own delivery does not wait for it; the posts queued behind it are taken out, and the report counts it in progress"
    )
    func shutdownFromInsideADelivery() {
        var state = PostOfficeState(limit: .default)
        let other = LaneKey.sender(ObjectIdentifier(Sender()))
        let posts = (0..<3).map(post)
        for post in posts { _ = state.post(post, lane: lane, overLimit: false) }
        let elsewhere = post(3)
        _ = state.post(elsewhere, lane: other, overLimit: false)
        _ = state.nextStep(lane: lane, after: nil)  // posts[0] in flight: it calls for the shutdown
        _ = state.nextStep(lane: other, after: nil)

        let start = state.shutdown(from: lane)
        #expect(start.released.drainWaiters.isEmpty)
        #expect(!state.isDrained)  // the other lane's post is still under way

        let released = state.nextStep(lane: other, after: handled(elsewhere)).released
        #expect(state.isDrained)  // only the caller's lane is left
        #expect(!released.closed)
        let queued = state.takeQueuedBehindCallers()
        #expect(queued.compactMap { ($0.event as? Ping)?.number } == [1, 2])
        for post in queued { _ = state.endedWhileQueued(endedByShutdown(post)) }

        let (report, closed) = state.makeReport()
        #expect(report == EventSystem.ShutdownReport(finished: 1, endedEarly: 2, refused: 0, inProgress: 1))
        #expect(!closed)
        #expect(state.phase == .reported)

        // The caller's post ends after the report: the office closes, the report stays.
        let last = state.nextStep(lane: lane, after: handled(posts[0]))
        guard case .finished = last.step else {
            Issue.record("the caller's lane did not finish")
            return
        }
        #expect(last.released.closed)
        #expect(state.phase == .closed)
        #expect(state.makeReport() == (report, false))
    }

    @Test(
        "a post that releases its lane hands the rest to a new task at once; it stays outstanding, cancellable, and no longer ahead of the queue"
    )
    func releaseHandsTheLaneOn() {
        var state = PostOfficeState(limit: .default)
        let posts = postWithTheFirstInFlight(3, in: &state)
        #expect(state.postAhead(of: posts[1].ticket, lane: lane) === posts[0].ticket)

        #expect(state.release(posts[1].ticket, lane: lane) == .refused)  // queued, not in flight
        #expect(state.release(posts[0].ticket, lane: lane) == .released(successor: true))
        #expect(state.release(posts[0].ticket, lane: lane) == .refused)  // once
        #expect(state.postAhead(of: posts[1].ticket, lane: lane) == nil)
        #expect(state.outstanding == 3)

        // The new task delivers the rest; the released post is still reached by its ticket.
        #expect(delivered(state.nextStep(lane: lane, after: nil).step) == 1)
        guard case .interruptDelivery = state.cancel(posts[0].ticket, lane: lane) else {
            Issue.record("the released post's delivery was not interrupted")
            return
        }
        // Its task ends it without touching the lane: post 1 is still in flight there.
        guard case .retire(successor: false) = state.nextStep(lane: lane, after: handled(posts[0])).step
        else {
            Issue.record("the released post's task did not retire alone")
            return
        }
        #expect(state.outstanding == 2)
        #expect(state.postAhead(of: posts[2].ticket, lane: lane) === posts[1].ticket)
        #expect(delivered(state.nextStep(lane: lane, after: handled(posts[1])).step) == 2)

        // The last post releases an empty lane: it is removed, and a new post starts a new one.
        #expect(state.release(posts[2].ticket, lane: lane) == .released(successor: false))
        #expect(state.post(post(3), lane: lane, overLimit: false) == .accepted(startDelivery: true))
        _ = state.nextStep(lane: lane, after: handled(posts[2]))
        #expect(state.outstanding == 1)
    }

    @Test(
        "while shutting down, a released post is waited for and ended with the rest, unless it called for the shutdown itself"
    )
    func releasedPostsWhileShuttingDown() {
        var state = PostOfficeState(limit: .default)
        let other = LaneKey.sender(ObjectIdentifier(Sender()))
        let posts = postWithTheFirstInFlight(2, in: &state)
        let elsewhere = post(2)
        _ = state.post(elsewhere, lane: other, overLimit: false)
        _ = state.nextStep(lane: other, after: nil)
        #expect(state.release(posts[0].ticket, lane: lane) == .released(successor: true))
        #expect(state.release(elsewhere.ticket, lane: other) == .released(successor: false))
        #expect(delivered(state.nextStep(lane: lane, after: nil).step) == 1)

        // The released post of `lane` calls for the shutdown from its own delivery.
        _ = state.shutdown(from: lane, ticket: posts[0].ticket)
        let remaining = state.endRemaining()
        #expect(
            Set(remaining.inFlight.map { ObjectIdentifier($0.ticket) })
                == [ObjectIdentifier(posts[1].ticket), ObjectIdentifier(elsewhere.ticket)])
        _ = state.nextStep(lane: lane, after: endedByShutdown(posts[1]))
        #expect(!state.isDrained)  // the other released post is still running
        _ = state.nextStep(lane: other, after: endedByShutdown(elsewhere))
        #expect(state.isDrained)  // only the caller is left

        let (report, closed) = state.makeReport()
        #expect(report == EventSystem.ShutdownReport(finished: 0, endedEarly: 2, refused: 0, inProgress: 1))
        #expect(!closed)
        let last = state.nextStep(lane: lane, after: handled(posts[0]))
        #expect(last.released.closed)
        #expect(state.phase == .closed)
    }

    @Test("the report is made once: posts refused after it are not counted in it")
    func reportIsMadeOnce() {
        var state = PostOfficeState(limit: .default)
        _ = state.shutdown()
        let (report, closed) = state.makeReport()
        #expect(closed)  // nothing was outstanding: the office closes with the report
        #expect(state.post(post(0), lane: lane, overLimit: false) == .rejected(.shuttingDown))
        #expect(state.makeReport() == (report, false))
        #expect(report.refused == 0)
    }
}

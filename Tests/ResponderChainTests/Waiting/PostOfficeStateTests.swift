@testable import ResponderChain
import Testing

/// The post office's rules as a pure state machine, driven step by step: no task runs, no
/// continuation is resumed, every transition's answer is checked.
@Suite("Post office state machine")
struct PostOfficeStateTests {
    struct Ping: Event { let number: Int }

    actor Sender: Responder {
        var next: (any Responder)? { nil }
    }

    let sender = Sender()
    let office = PostOffice(limit: .default, observers: EventObservers())
    var lane: ObjectIdentifier { ObjectIdentifier(sender) }

    func post(_ number: Int) -> PendingPost {
        PendingPost(
            event: Ping(number: number), entry: sender, source: .responder(sender), options: .default,
            capture: TraceCapture(
                Ping(number: number), from: .responder(sender), system: EventSystem(), options: .default),
            ticket: TicketState(eventID: EventID(rawValue: UInt64(number)), office: office, lane: lane),
            isolation: nil)
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
        arguments: [PostingLimit.Policy.suspend, .reject])
    func limit(policy: PostingLimit.Policy) {
        var state = PostOfficeState(limit: PostingLimit(maxOutstanding: 2, whenFull: policy))
        _ = state.post(post(0), lane: lane, overLimit: false)
        _ = state.post(post(1), lane: lane, overLimit: false)
        let expected: PostOfficeState.PostDecision =
            policy == .suspend ? .mustWait : .rejected(.limitReached(maxOutstanding: 2))
        #expect(state.post(post(2), lane: lane, overLimit: false) == expected)
        #expect(state.admitBeforeWaiting(post(2), lane: lane) == nil)
        #expect(state.post(post(2), lane: lane, overLimit: true) == .accepted(startDelivery: false))
        #expect(state.outstanding == 3)
    }

    @Test(
        "cancelling a queued post frees its room at once; cancelling the one in flight retires its lane's task"
    )
    func ticketCancellation() {
        var state = PostOfficeState(limit: .default)
        let posts = (0..<3).map(post)
        for post in posts { _ = state.post(post, lane: lane, overLimit: false) }
        _ = state.nextStep(lane: lane, after: nil)  // 0 in flight

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
        #expect(state.admitBeforeWaiting(post(1), lane: lane)?.admission == .shuttingDown)
        #expect(state.countsSoFar == ShutdownReport(finished: 0, endedEarly: 0, refused: 2))
        #expect(state.outstanding == 0)
    }

    @Test("while draining, posts that finish count as finished, and the last one closes the office")
    func drainFinishes() {
        var state = PostOfficeState(limit: .default)
        let posts = (0..<2).map(post)
        for post in posts { _ = state.post(post, lane: lane, overLimit: false) }
        _ = state.nextStep(lane: lane, after: nil)
        _ = state.shutdown()
        #expect(state.phase == .draining)

        _ = state.nextStep(lane: lane, after: handled(posts[0]))
        #expect(!state.isDrained)
        _ = state.nextStep(lane: lane, after: handled(posts[1]))
        #expect(state.isDrained)
        #expect(state.countsSoFar == ShutdownReport(finished: 2, endedEarly: 0, refused: 0))
    }

    @Test(
        "when the grace period ends, queued posts are taken out and the one in flight is named; each counts as ended early"
    )
    func endRemaining() {
        var state = PostOfficeState(limit: .default)
        let posts = (0..<3).map(post)
        for post in posts { _ = state.post(post, lane: lane, overLimit: false) }
        _ = state.nextStep(lane: lane, after: nil)
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
        #expect(state.countsSoFar == ShutdownReport(finished: 0, endedEarly: 3, refused: 0))
    }

    /// The report and the tickets cannot disagree: a post is counted by the outcome its ticket
    /// holds, which is the first one recorded, and it stops counting as outstanding only through
    /// its ticket's settlement (so the drain never completes ahead of a ticket's outcome).
    @Test("while draining, a post is counted by the outcome its ticket holds, the first one recorded")
    func countedByTheTicketsOutcome() throws {
        var state = PostOfficeState(limit: .default)
        let posts = (0..<2).map(post)
        for post in posts { _ = state.post(post, lane: lane, overLimit: false) }
        _ = state.nextStep(lane: lane, after: nil)
        _ = state.shutdown()

        _ = endedByShutdown(posts[0])  // the shutdown's stop reached the ticket first
        let late = handled(posts[0])  // the delivery's own outcome comes second and loses
        #expect(late.outcome.wasEndedByShutdown)
        #expect(try #require(posts[0].ticket.finishedOutcome).wasEndedByShutdown)
        _ = state.nextStep(lane: lane, after: late)
        #expect(state.countsSoFar == ShutdownReport(finished: 0, endedEarly: 1, refused: 0))
        #expect(!state.isDrained)

        _ = state.nextStep(lane: lane, after: handled(posts[1]))
        #expect(state.isDrained)
        #expect(state.countsSoFar == ShutdownReport(finished: 1, endedEarly: 1, refused: 0))
    }

    @Test(
        "a shutdown called from a post's own delivery does not wait for it; the posts queued behind it are taken out, and the report counts it in progress"
    )
    func shutdownFromInsideADelivery() {
        var state = PostOfficeState(limit: .default)
        let other = ObjectIdentifier(Sender())
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
        #expect(report == ShutdownReport(finished: 1, endedEarly: 2, refused: 0, inProgress: 1))
        #expect(!closed)
        #expect(state.phase == .draining)

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

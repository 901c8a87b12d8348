import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

@Suite("Cancellation", .timeLimit(.minutes(1)))
struct CancellationTests {
    @Test("cancelling an awaited send while a handler is parked stops it there; responders above never run")
    func cancelAwaitedSendWhileParked() async throws {
        let (gate, top, parked, leaf) = F.parkedChain()

        let outcome = try await cancelOnceParked(sendingFrom: leaf, gate: gate)

        let stop = try #require(outcome.cancelledDetails)
        #expect(stop.responder == ResponderID(parked))
        #expect(stop.hop == 2)
        #expect(stop.whileHandling)
        #expect(stop.lastReached == ResponderID(parked))
        #expect(await parked.sawTaskCancelled)
        #expect(await parked.sawContextCancelled)
        #expect(await top.seen.isEmpty)
    }

    @Test("a handler that ignores cancellation finishes, and the event stops before the next hop")
    func cancelledSendStopsBeforeNextHop() async throws {
        let (gate, top, parked, _) = F.parkedChain(ignoringCancellation: true)

        let outcome = try await cancelOnceParked(sendingFrom: parked, gate: gate)

        let stop = try #require(outcome.cancelledDetails)
        #expect(stop.responder == ResponderID(top))
        #expect(stop.hop == 2)
        #expect(!stop.whileHandling)
        #expect(stop.lastReached == ResponderID(parked))  // where the event really was
        #expect(outcome.description == "cancelled before hop 2 at top, after parked (task cancelled)")
        #expect(outcome.handlers == [ResponderID(parked)])
        #expect(await parked.sawTaskCancelled)
        #expect(await top.seen.isEmpty)
    }

    /// Sends event 0 from `sender` in a task, cancels that task once a handler has arrived at
    /// `gate`, and returns the send's outcome.
    private func cancelOnceParked(sendingFrom sender: F.Node, gate: Gate) async throws -> Outcome {
        let sending = Task { await sender.send(F.Numbered(sender: 0, number: 0)) }
        try await gate.waitForArrivals(1)
        sending.cancel()
        return await sending.value
    }

    @Test("a send whose task is cancelled before it starts never reaches its first responder")
    func cancelBeforeFirstHop() async throws {
        let ready = Gate()
        let leaf = F.Node("leaf", .handle, root: true)
        let sending = Task {
            try? await ready.pass()  // the test cancels the task while it waits here
            return await leaf.send(F.Numbered(sender: 0, number: 0))
        }
        try await ready.waitForArrivals(1)
        sending.cancel()

        let stop = try #require((await sending.value).cancelledDetails)
        #expect(stop.responder == ResponderID(leaf))
        #expect(stop.hop == 1)
        #expect(!stop.whileHandling)
        #expect(stop.lastReached == nil)  // no hop ran
        #expect(await leaf.seen.isEmpty)
    }

    @Test(
        "cancelling a ticket while its handler is parked stops it there; the sender's next post still arrives"
    )
    func cancelTicketWhileParked() async throws {
        let (gate, top, parked, leaf) = F.parkedChain()

        let first = await leaf.post(F.Numbered(sender: 0, number: 0))
        let second = await leaf.post(F.Numbered(sender: 0, number: 1))
        try await gate.waitForArrivals(1)
        first.cancel()

        let stop = try #require((await first.outcome).cancelledDetails)
        #expect(first.isCancelled)
        #expect(stop.responder == ResponderID(parked))
        #expect(stop.hop == 2)
        #expect(stop.whileHandling)
        #expect(await parked.sawTaskCancelled)
        #expect(await parked.sawContextCancelled)

        gate.open()
        #expect(await second.outcome.kind == .handled)
        #expect(await parked.seen.map(\.number) == [0, 1])
        #expect(await top.seen.isEmpty)
    }

    @Test("cancelling a queued ticket ends it at once, before hop 1, and nobody sees the event")
    func cancelQueuedTicket() async throws {
        let (gate, system, parked) = F.parkedRoot("parked")
        let tracer = RecordingTracer()
        let options = SendOptions(tracer: tracer)

        let first = await parked.post(F.Numbered(sender: 0, number: 0), options: options)
        let queued = await parked.post(F.Numbered(sender: 0, number: 1), options: options)
        try await gate.waitForArrivals(1)
        queued.cancel()

        // The first post is still parked: the queued one's outcome does not wait for it.
        let stop = try #require((await queued.outcome).cancelledDetails)
        #expect(stop.hop == 1)
        #expect(!stop.whileHandling)
        #expect(stop.responder == ResponderID(parked))
        #expect(first.finishedOutcome == nil)

        gate.open()
        #expect(await first.outcome.kind == .handled)
        #expect(await parked.seen.map(\.number) == [0])
        #expect(tracer.outcomes.map(\.kind) == [.cancelled, .handled])
        #expect(system.outstandingPosts == 0)
    }

    @Test(
        "abandoning a ticket stops its event as cancelling it does, and dead-letters it, parked or queued; a cancelled one is not dead-lettered"
    )
    func abandonTicket() async throws {
        let letters = DeadLetterRecorder()
        let (gate, system, parked) = F.parkedRoot("parked", in: EventSystem(deadLetters: letters.sink))

        let first = await parked.post(F.Numbered(sender: 0, number: 0))
        let queued = await parked.post(F.Numbered(sender: 0, number: 1))
        let cancelled = await parked.post(F.Numbered(sender: 0, number: 2))
        try await gate.waitForArrivals(1)
        cancelled.cancel()
        await queued.abandon()  // returns once the queued post has ended

        let queuedStop = try #require(queued.finishedOutcome?.cancelledDetails)
        #expect(queuedStop.reason == .ticketCancelled)
        #expect(queuedStop.hop == 1)
        #expect(!queuedStop.whileHandling)
        #expect(queued.isCancelled)
        await first.abandon()
        let stop = try #require((await first.outcome).cancelledDetails)
        #expect(stop.reason == .ticketCancelled)
        #expect(stop.whileHandling)
        #expect(first.isCancelled)
        #expect((await cancelled.outcome).cancelledDetails?.reason == .ticketCancelled)

        #expect(Set(letters.outcomes.map(\.eventID)) == [first.eventID, queued.eventID])
        #expect(letters.outcomes.allSatisfy { $0.cancelledDetails?.reason == .ticketCancelled })
        #expect(await parked.seen.map(\.number) == [0])
        #expect(system.outstandingPosts == 0)
    }

    @Test("cancelling a ticket after its outcome is known changes nothing")
    func cancelFinishedTicket() async {
        let leaf = F.Node("leaf", .handle)
        let ticket = await leaf.post(F.Numbered(sender: 0, number: 0))
        #expect(await ticket.outcome.kind == .handled)
        ticket.cancel()
        #expect(!ticket.isCancelled)
        #expect(ticket.finishedOutcome?.kind == .handled)
    }

    @Test("cancelling the posting task does not cancel what it already posted")
    func posterCancellationDoesNotCancelPosts() async throws {
        let (gate, _, parked) = F.parkedRoot("parked")
        let posting = Task { await parked.post(F.Numbered(sender: 0, number: 0)) }
        let ticket = await posting.value
        try await gate.waitForArrivals(1)
        posting.cancel()
        gate.open()
        #expect(await ticket.outcome.kind == .handled)
    }
}

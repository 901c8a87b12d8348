@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

@Suite("Lane release", .timeLimit(.minutes(1)))
struct LaneReleaseTests {
    /// Releases the sender's lane from the handler's context, and keeps whether it did in the
    /// responder's ``ScriptedResponder/notes``.
    private static let release = F.Step.note { _, context in context.releaseSenderLane() }

    /// The `release` results a responder noted, in order.
    private static func releases(_ node: F.Node) async -> [Bool] {
        await node.notes.compactMap { $0 as? Bool }
    }

    @Test(
        "a handler that releases its lane and parks: the sender's next posts reach the same responder and complete meanwhile"
    )
    func nextPostGoesOnWhileReleasedOneParks() async throws {
        let gate = Gate()
        let system = EventSystem()
        let top = F.Node("top", .handle, root: true, system: system)
        let link = F.Scripted(
            "link", parent: top, system: system,
            scripts: [0: F.Script([Self.release, .park(gate)], then: .handled)],
            otherwise: F.Script([Self.release], then: .handledAndContinue))

        let first = await link.post(F.Numbered(sender: 0, number: 0))
        let queued = await link.post(F.Numbered(sender: 0, number: 1))  // taken over by a new task
        try await gate.waitForArrivals(1)
        #expect(await queued.outcome.kind == .handled)
        let later = await link.post(F.Numbered(sender: 0, number: 2))  // the lane had emptied
        #expect(await later.outcome.kind == .handled)

        #expect(first.finishedOutcome == nil)  // still parked
        #expect(system.outstandingPosts == 1)
        #expect(await link.seen.map(\.number) == [0, 1, 2])
        #expect(await top.seen.map(\.number) == [1, 2])

        gate.open()
        let handled = try #require((await first.outcome).handledDetails)
        #expect(handled.handlers == [ResponderID(link)])
        #expect(await Self.releases(link) == [true, true, true])
        #expect(system.outstandingPosts == 0)
    }

    @Test(
        "order holds up to the release: 1,000 posts released at the top arrive in post order at every responder"
    )
    func orderKeptUpToTheRelease() async throws {
        let count = 1_000
        let system = EventSystem()
        let top = F.Node(
            "top", F.Script([Self.release, .yield(2)], then: .handled), root: true, system: system)
        let nodes = F.chain(3, below: top) { index in .suspendRandomly(seed: UInt64(index) + 7) }
        let sender = nodes[0]

        var tickets: [Ticket] = []
        for number in 0..<count {
            tickets.append(await sender.post(F.Numbered(sender: 0, number: number)))
        }
        for ticket in tickets {
            #expect(await ticket.outcome.kind == .handled)
        }

        for node in nodes + [top] {
            #expect(await node.seen.map(\.number) == Array(0..<count), "at \(node.name)")
        }
        #expect(await Self.releases(top) == Array(repeating: true, count: count))
        #expect(system.outstandingPosts == 0)
    }

    @Test(
        "canReleaseSenderLane says whether a release would release: in a post's handler until it releases, never in an awaited send or a nested send"
    )
    func canReleaseSaysWhetherReleaseWould() async throws {
        let ask = F.Step.note { _, context in "can \(context.canReleaseSenderLane)" }
        let system = EventSystem()
        let inner = F.Node("inner", F.Script([ask], then: .handled), root: true, system: system)
        let node = F.Scripted(
            "node", root: true, system: system,
            scripts: [1: F.Script([.send(from: inner) { _ in F.Numbered(sender: 1, number: 0) }, ask])],
            otherwise: F.Script([ask, Self.release, ask], then: .handled))

        #expect(await inner.send(F.Numbered(sender: 1, number: 0)).kind == .handled)
        #expect(await node.send(F.Numbered(sender: 0, number: 0)).kind == .handled)
        #expect(await node.post(F.Numbered(sender: 0, number: 2)).outcome.kind == .handled)
        #expect(await node.post(F.Numbered(sender: 0, number: 1)).outcome.kind == .handled)
        #expect(await inner.notes.compactMap { $0 as? String } == ["can false", "can false"])
        #expect(
            await node.notes.compactMap { $0 as? String } == [
                "can false", "can false", "can true", "can false", "can true",
            ])
    }

    @Test(
        "releasing from an awaited send, a second time, or from a nested send inside a post's handler returns false"
    )
    func releaseRefused() async throws {
        let gate = Gate()
        let system = EventSystem()
        let inner = F.Node("inner", F.Script([Self.release], then: .handled), root: true, system: system)
        let node = F.Scripted(
            "node", root: true, system: system,
            scripts: [
                0: F.Script([
                    .send(from: inner) { _ in F.Numbered(sender: 1, number: 0) },
                    // With a signal of its own (a deadline's), in a child task that carries the
                    // post's delivery stamp.
                    .perform { _, _ in
                        _ = await inner.send(
                            F.Numbered(sender: 1, number: 1), options: SendOptions(timeout: .seconds(60)))
                    },
                    .park(gate),
                ]),
                2: F.Script([Self.release, Self.release]),
            ])

        // An awaited send has no lane.
        #expect(await inner.send(F.Numbered(sender: 1, number: 0)).kind == .handled)
        #expect(await Self.releases(inner) == [false])

        // A send nested in a post's handler runs in the post's task, but is not the post.
        let first = await node.post(F.Numbered(sender: 0, number: 0))
        let second = await node.post(F.Numbered(sender: 0, number: 1))
        try await gate.waitForArrivals(1)
        #expect(await Self.releases(inner) == [false, false, false])
        #expect(second.state.postAhead() === first.state)  // still queued behind the first
        #expect(await node.seen.map(\.number) == [0])
        gate.open()
        #expect(await first.outcome.kind == .handled)
        #expect(await second.outcome.kind == .handled)
        #expect(await node.log == ["start 0", "end 0", "start 1", "end 1"])

        // Twice: only the first call releases.
        let third = await node.post(F.Numbered(sender: 0, number: 2))
        #expect(await third.outcome.kind == .handled)
        #expect(await Self.releases(node) == [true, false])
        #expect(system.outstandingPosts == 0)
    }

    @Test(
        "cancelling a released post's ticket ends it cancelled while handling; the lane's later posts are unaffected"
    )
    func cancelReleasedPost() async throws {
        let (gate, later) = (Gate(), Gate())
        let system = EventSystem()
        let link = F.Scripted(
            "link", root: true, system: system,
            scripts: [
                0: F.Script([Self.release, .park(gate)]),
                1: F.Script([.park(later)]),
            ])

        let first = await link.post(F.Numbered(sender: 0, number: 0))
        let second = await link.post(F.Numbered(sender: 0, number: 1))
        let third = await link.post(F.Numbered(sender: 0, number: 2))
        try await gate.waitForArrivals(1)
        try await later.waitForArrivals(1)  // the second is being delivered by the lane's new task
        first.cancel()

        let stop = try #require((await first.outcome).cancelledDetails)
        #expect(first.isCancelled)
        #expect(stop.reason == .ticketCancelled)
        #expect(stop.whileHandling)
        #expect(stop.responder == ResponderID(link))
        #expect(second.finishedOutcome == nil)  // its task was not cancelled
        #expect(third.state.postAhead() === second.state)

        later.open()
        #expect(await second.outcome.kind == .handled)
        #expect(await third.outcome.kind == .handled)
        #expect(!second.isCancelled)
        #expect(await link.seen.map(\.number) == [0, 1, 2])
        #expect(system.outstandingPosts == 0)
    }

    /// A root in `rig`'s system whose handler releases its lane and parks event 0 on `gate`, and
    /// handles the others; event 0 parked, event 1 handled meanwhile.
    private static func releasedAndParked(_ rig: F.Rig) async throws -> (Gate, F.Node, Ticket) {
        let gate = Gate()
        let link = F.Scripted(
            "link", root: true, system: rig.system,
            scripts: [0: F.Script([Self.release, .park(gate)])])
        let first = await link.post(F.Numbered(sender: 0, number: 0))
        let second = await link.post(F.Numbered(sender: 0, number: 1))
        try await gate.waitForArrivals(1)
        #expect(await second.outcome.kind == .handled)
        #expect(rig.system.outstandingPosts == 1)
        return (gate, link, first)
    }

    @Test("the shutdown's drain waits for a released post still running, and counts it finished")
    func shutdownDrainWaitsForReleasedPost() async throws {
        let rig = F.Rig()
        let (gate, _, first) = try await Self.releasedAndParked(rig)

        let shutdown = Task { await rig.system.shutDown(gracePeriod: .seconds(60)) }
        try await waitUntil("the shutdown has begun") { rig.system.isShuttingDown }
        #expect(first.finishedOutcome == nil)
        gate.open()

        let report = await shutdown.value
        // Only the released post was outstanding when the shutdown began.
        #expect(report == EventSystem.ShutdownReport(finished: 1, endedEarly: 0, refused: 0))
        #expect(first.finishedOutcome?.kind == .handled)  // before the report was made
        #expect(rig.system.outstandingPosts == 0)
    }

    @Test("when the grace period ends, a released post still running ends cancelled, with reason shutdown")
    func shutdownEndsReleasedPost() async throws {
        let rig = F.Rig()
        let (_, link, first) = try await Self.releasedAndParked(rig)  // the gate never opens

        let report = await rig.system.shutDown(gracePeriod: .zero)
        #expect(report == EventSystem.ShutdownReport(finished: 0, endedEarly: 1, refused: 0))
        let stop = try #require(first.finishedOutcome?.cancelledDetails)
        #expect(stop.reason == .shutdown)
        #expect(stop.whileHandling)
        #expect(!first.isCancelled)
        #expect(await link.sawTaskCancelled)
        #expect(rig.letters.outcomes.map(\.eventID) == [first.eventID])
        #expect(rig.system.outstandingPosts == 0)
    }

    /// Keeps the report a handler got.
    private actor Reports {
        private(set) var all: [EventSystem.ShutdownReport] = []
        func add(_ report: EventSystem.ShutdownReport) { all.append(report) }
    }

    @Test(
        "a released post that shuts its own system down gets the report without waiting for itself; the lane's next post is drained"
    )
    func releasedPostShutsDown() async throws {
        let gate = Gate()
        let reports = Reports()
        let rig = F.Rig()
        let system = rig.system
        let link = F.Scripted(
            "link", root: true, system: system,
            scripts: [
                0: F.Script([
                    Self.release,
                    .perform { _, _ in await reports.add(await system.shutDown(gracePeriod: .seconds(3_600)))
                    },
                ]),
                1: F.Script([.park(gate)]),
            ])

        let first = await link.post(F.Numbered(sender: 0, number: 0))
        let second = await link.post(F.Numbered(sender: 0, number: 1))
        try await waitUntil("the shutdown has begun") { system.isShuttingDown }
        gate.open()  // the drain waits for the lane's next post, not for the post that called it

        #expect(await first.outcome.kind == .handled)
        #expect(second.finishedOutcome?.kind == .handled)  // before the report was made
        #expect(
            await reports.all == [
                EventSystem.ShutdownReport(finished: 1, endedEarly: 0, refused: 0, inProgress: 1)
            ])
        #expect(system.outstandingPosts == 0)
    }

    @Test("the posting limit counts released posts until they end")
    func limitCountsReleasedPosts() async throws {
        let gate = Gate()
        let rig = F.Rig(limit: EventSystem.PostingLimit(maxOutstanding: 2, whenFull: .reject))
        let link = F.Node("link", F.Script([Self.release, .park(gate)]), root: true, system: rig.system)

        let first = await link.post(F.Numbered(sender: 0, number: 0))
        let second = await link.post(F.Numbered(sender: 0, number: 1))
        try await gate.waitForArrivals(2)  // both released, both parked
        #expect(rig.system.outstandingPosts == 2)

        let over = await link.post(F.Numbered(sender: 0, number: 2))
        let rejection = try #require(over.finishedOutcome?.rejectedDetails)  // at once
        #expect(rejection.reason == .limitReached(maxOutstanding: 2))

        gate.open()
        #expect(await first.outcome.kind == .handled)
        #expect(await second.outcome.kind == .handled)
        #expect(await Self.releases(link) == [true, true])
        let after = await link.post(F.Numbered(sender: 0, number: 3))
        #expect(await after.outcome.kind == .handled)
        #expect(rig.system.outstandingPosts == 0)
    }
}

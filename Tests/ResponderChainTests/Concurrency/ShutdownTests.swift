import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

/// The grace periods run on a manual clock (a test store's, where the test asserts every ending):
/// the shutdown's grace timer being scheduled is the signal that it has begun, and a grace period
/// ends when the test advances the clock past it, never in real time.
@Suite("Shutdown", .timeLimit(.minutes(1)))
struct ShutdownTests {
    /// A node of `store`'s system that parks on a gate, and three posts to it: the first parked
    /// in its handler, the other two queued.
    private static func threePostsOneParked(in store: TestStore) async throws -> (Gate, F.Node, [Ticket]) {
        let (gate, _, node) = F.parkedRoot(in: store.system)
        var tickets: [Ticket] = []
        for number in 0..<3 {
            tickets.append(await node.post(F.Numbered(sender: 0, number: number)))
        }
        try await gate.waitForArrivals(1)
        return (gate, node, tickets)
    }

    @Test(
        "a system with nothing outstanding shuts down at once; later posts are refused, traced and dead-lettered"
    )
    func nothingOutstanding() async throws {
        let clock = ManualClock()
        let rig = F.Rig(clock: clock)
        let node = F.Node("node", .handle, root: true, system: rig.system)

        let report = await rig.system.shutDown(gracePeriod: .seconds(60))  // the clock never moves
        #expect(report == EventSystem.ShutdownReport(finished: 0, endedEarly: 0, refused: 0))
        #expect(rig.system.isShuttingDown)
        #expect(clock.pendingTimerCount == 0)

        let late = await node.post(F.Numbered(sender: 0, number: 0))
        let rejection = try #require(late.finishedOutcome?.rejectedDetails)
        #expect(rejection.reason == .shuttingDown)
        #expect(rig.letters.outcomes.map(\.kind) == [.rejected])
        #expect(rig.tracer.outcomes.map(\.kind) == [.rejected])
        #expect(await node.seen.isEmpty)
        #expect(await rig.system.shutDown(gracePeriod: .zero) == report)  // made once: the refusal after it is not counted
    }

    @Test(
        "posts accepted before the shutdown are delivered in order during the grace period and counted as finished"
    )
    func acceptedPostsFinish() async throws {
        let store = TestStore()
        let (gate, node, tickets) = try await Self.threePostsOneParked(in: store)

        await store.shutDown(gracePeriod: .seconds(60))  // returns once it waits for the grace period
        let refused = await node.post(F.Numbered(sender: 0, number: 3))
        #expect(refused.finishedOutcome?.rejectedDetails?.reason == .shuttingDown)
        #expect(await store.receiveDeadLetter(.rejected)?.outcome.eventID == refused.eventID)

        gate.open()
        await store.receiveShutdownReport(EventSystem.ShutdownReport(finished: 3, endedEarly: 0, refused: 1))
        for ticket in tickets {
            #expect(await store.receiveOutcome(of: ticket)?.kind == .handled)
        }
        #expect(await node.seen.map(\.number) == [0, 1, 2])
        #expect(store.clock.now == EventSystem.Instant(offset: .zero))  // no time passed
        await store.finish()  // nothing outstanding; the drain came first, its grace timer is gone
    }

    @Test(
        "when the grace period ends, queued posts end cancelled before hop 1 and the post in flight during its hop, all dead-lettered with reason shutdown"
    )
    func gracePeriodEnds() async throws {
        let tracer = RecordingTracer()
        let store = TestStore(tracer: tracer)
        let (_, node, tickets) = try await Self.threePostsOneParked(in: store)  // the gate never opens

        await store.shutDown(gracePeriod: .seconds(5))
        await store.advance(by: .seconds(5) - .nanoseconds(1))
        #expect(tickets.allSatisfy { $0.finishedOutcome == nil })  // still in its grace period
        await store.advance(by: .nanoseconds(1))  // returns once the drain has ended the rest
        #expect(tickets.allSatisfy { $0.finishedOutcome != nil })
        await store.receiveShutdownReport(EventSystem.ShutdownReport(finished: 0, endedEarly: 3, refused: 0))

        let inFlight = try #require(tickets[0].finishedOutcome?.cancelledDetails)
        #expect(inFlight.reason == .shutdown)
        #expect(inFlight.whileHandling)
        #expect(inFlight.hop == 1)
        #expect(await node.sawTaskCancelled)
        for ticket in tickets.dropFirst() {
            let queued = try #require(ticket.finishedOutcome?.cancelledDetails)
            #expect(queued.reason == .shutdown)
            #expect(!queued.whileHandling)
            #expect(queued.hops == 0)
            #expect(!ticket.isCancelled)
        }
        #expect(await node.seen.map(\.number) == [0])
        var lettered: Set<EventID> = []
        for _ in tickets {
            let letter = try #require(await store.receiveDeadLetter(.cancelled))
            #expect(letter.outcome.cancelledDetails?.reason == .shutdown)
            lettered.insert(letter.outcome.eventID)
        }
        #expect(lettered == Set(tickets.map(\.eventID)))
        #expect(tracer.outcomes.count == 3)
        await store.finish()
    }

    @Test("posters waiting for room are refused as soon as the shutdown begins")
    func waitingPostersRefused() async throws {
        let rig = F.Rig(
            limit: EventSystem.PostingLimit(maxOutstanding: 1, whenFull: .suspend), clock: ManualClock())
        let (gate, _, node) = F.parkedRoot(in: rig.system)
        let first = await node.post(F.Numbered(sender: 0, number: 0))
        let waiting = Task { await node.post(F.Numbered(sender: 1, number: 1)) }
        try await waitUntil("one poster waits for room") { rig.system.suspendedPosters == 1 }

        let shutdown = Task { await rig.system.shutDown(gracePeriod: .seconds(60)) }
        let refused = await waiting.value
        #expect(refused.finishedOutcome?.rejectedDetails?.reason == .shuttingDown)
        #expect(rig.system.suspendedPosters == 0)

        gate.open()
        #expect(await shutdown.value == EventSystem.ShutdownReport(finished: 1, endedEarly: 0, refused: 1))
        #expect(first.finishedOutcome?.kind == .handled)
        #expect(await node.seen.map(\.number) == [0])
    }

    /// A root whose handler waits until its task is cancelled, says so at `cancelled`, then
    /// goes on until the test opens `finish` (a wait its cancellation does not reach) and returns
    /// `.handled`.
    private actor Stubborn: Responder {
        nonisolated let eventSystem: EventSystem
        let cancelled = Gate()
        let finish = Gate()

        init(system: EventSystem) { self.eventSystem = system }

        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }

        static let strategies = Strategies<Stubborn> {
            $0.on(F.Numbered.self) { stubborn, _, _ in
                await F.waitForCancellation()
                try? await stubborn.cancelled.pass()  // cancelled: returns at once, arrival counted
                // An unstructured task does not inherit the handler's cancellation, and `value`
                // waits for it regardless: the handler ignores its cancellation until `finish`.
                let finish = stubborn.finish
                await Task { try? await finish.pass() }.value
                return .handled
            }
        }
    }

    @Test(
        "a handler that ignores cancellation delays the shutdown until it returns; its event still ends cancelled by the shutdown"
    )
    func handlerIgnoringCancellation() async throws {
        let clock = ManualClock()
        let rig = F.Rig(clock: clock)
        let stubborn = Stubborn(system: rig.system)
        let ticket = await stubborn.post(F.Numbered(sender: 0, number: 0))

        let shutdown = Task { await rig.system.shutDown(gracePeriod: .seconds(5)) }
        try await clock.waitForTimers(1)
        // The advance ends the grace period, then waits for the drain: for the handler.
        let advancing = Task { await clock.advance(by: .seconds(5)) }
        try await stubborn.cancelled.waitForArrivals(1)  // the shutdown has cancelled the delivery
        #expect(rig.system.outstandingPosts == 1)
        #expect(ticket.finishedOutcome == nil)
        stubborn.finish.open()
        await advancing.value

        #expect(await shutdown.value == EventSystem.ShutdownReport(finished: 0, endedEarly: 1, refused: 0))
        let stop = try #require(ticket.finishedOutcome?.cancelledDetails)
        #expect(stop.reason == .shutdown)
        #expect(stop.whileHandling)
        #expect(stop.path.handlers == [ResponderID(stubborn)])
        #expect(rig.letters.count == 1)
    }

    @Test("shutting down twice, or at once from two tasks, waits for the same drain and returns its counts")
    func repeatedShutdown() async throws {
        let clock = ManualClock()
        let rig = F.Rig(clock: clock)
        let (gate, _, node) = F.parkedRoot(in: rig.system)
        _ = await node.post(F.Numbered(sender: 0, number: 0))
        try await gate.waitForArrivals(1)

        let first = Task { await rig.system.shutDown(gracePeriod: .seconds(60)) }
        let second = Task { await rig.system.shutDown(gracePeriod: .seconds(60)) }
        try await clock.waitForTimers(1)  // a grace period has begun: the shutdown has
        gate.open()
        let expected = EventSystem.ShutdownReport(finished: 1, endedEarly: 0, refused: 0)
        #expect(await first.value == expected)
        #expect(await second.value == expected)
        #expect(await rig.system.shutDown(gracePeriod: .zero) == expected)
    }

    @Test("cancelling the task that shuts down ends the grace period at once")
    func cancellingTheShutdown() async throws {
        let clock = ManualClock()
        let rig = F.Rig(clock: clock)
        let (gate, _, node) = F.parkedRoot(in: rig.system)  // the gate is never opened
        let ticket = await node.post(F.Numbered(sender: 0, number: 0))
        try await gate.waitForArrivals(1)

        let shutdown = Task { await rig.system.shutDown(gracePeriod: .seconds(3_600)) }
        try await clock.waitForTimers(1)  // the grace period has begun
        shutdown.cancel()  // the clock never moves: the cancellation alone ends it
        #expect(await shutdown.value == EventSystem.ShutdownReport(finished: 0, endedEarly: 1, refused: 0))
        #expect(ticket.finishedOutcome?.cancelledDetails?.reason == .shutdown)
    }

    /// Concurrent posters, handlers that suspend at random, a shutdown in the middle with a short
    /// grace period (ended by the manual clock as soon as the shutdown has begun, unless the drain
    /// came first): every post ends in exactly one outcome, and the report adds up.
    @Test("every post accepted before the shutdown gets exactly one outcome, with posters still posting")
    func everyPostAccountedFor() async throws {
        let clock = ManualClock()
        let rig = F.Rig(limit: EventSystem.PostingLimit(maxOutstanding: 64), clock: clock)
        let top = F.Node("top", .suspendRandomly(seed: 7), root: true, system: rig.system)
        let leaves = (0..<8).map { index in
            F.Node("leaf\(index)", .suspendRandomly(seed: UInt64(index)), parent: top, system: rig.system)
        }
        let started = Gate()

        // Each poster posts until the shutdown has begun, or until it is cancelled: the test
        // cancels them if it ends early, so that they never post on forever.
        let posters = leaves.enumerated().map { index, leaf in
            Task {
                var tickets: [Ticket] = []
                var number = 0
                repeat {
                    tickets.append(await leaf.post(F.Numbered(sender: index, number: number)))
                    number += 1
                    if number == 50 { try? await started.pass() }
                } while !Task.isCancelled && (number < 50 || !rig.system.isShuttingDown)
                return tickets
            }
        }
        defer { for poster in posters { poster.cancel() } }
        try await started.waitForArrivals(leaves.count)
        started.open()
        let shutdown = Task { await rig.system.shutDown(gracePeriod: .milliseconds(2)) }
        try await rig.system.waitUntilShuttingDown()
        await clock.advance(by: .milliseconds(2))
        let report = await shutdown.value

        var tickets: [Ticket] = []
        for poster in posters { tickets += await poster.value }
        let outcomes = tickets.compactMap(\.finishedOutcome)
        #expect(outcomes.count == tickets.count)
        let refused = outcomes.filter { $0.rejectedDetails?.reason == .shuttingDown }.count
        let endedEarly = outcomes.filter { $0.cancelledDetails?.reason == .shutdown }.count
        #expect(report.endedEarly == endedEarly)
        #expect(report.refused <= refused)
        #expect(rig.tracer.outcomes.count == tickets.count)
        #expect(Set(rig.tracer.outcomes.map(\.eventID)).count == tickets.count)
        #expect(rig.letters.outcomes.filter { $0.cancelledDetails?.reason == .shutdown }.count == endedEarly)
        #expect(rig.system.outstandingPosts == 0)
        for node in leaves + [top] { #expect(await node.duplicates == 0) }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

/// The timeouts and grace periods here run on a manual clock (a test store's, for the awaited
/// sends): they pass when the test advances it, once the post is parked in its handler, never in
/// real time.
@Suite("Dead letters of posts", .timeLimit(.minutes(1)))
struct PostDeadLetterTests {
    /// Each way a post can end.
    enum Ending: String, CaseIterable, CustomTestStringConvertible {
        case handled, unhandled, interrupted, rejected, cancelledByShutdown, cancelledByTicket
        case timedOut, failed, cycleDetected, abandoned

        var testDescription: String { rawValue }

        /// The kind of outcome the post ends in.
        var kind: Outcome.Kind {
            switch self {
            case .handled: .handled
            case .unhandled: .unhandled
            case .interrupted: .interrupted
            case .rejected: .rejected
            case .cancelledByShutdown, .cancelledByTicket, .abandoned: .cancelled
            case .timedOut: .timedOut
            case .failed: .failed
            case .cycleDetected: .cycleDetected
            }
        }

        /// Whether the post is dead-lettered: every ending but handled, and but the one its own
        /// ticket's `cancel()` made.
        var isDeadLettered: Bool { self != .handled && self != .cancelledByTicket }
    }

    /// Posts a `Ping` in `system`, which runs on `clock`, so that it ends as `ending` says, and
    /// returns its outcome.
    private func post(endingAs ending: Ending, in system: EventSystem, on clock: ManualClock) async throws
        -> Outcome
    {
        let gate = Gate()
        defer { gate.open() }
        switch ending {
        case .rejected:
            // The system takes one post at a time and rejects the rest.
            let chain = makeChain([.park(gate, then: .handled)], system: system)
            let parked = await chain[0].post(Ping())
            let outcome = await chain[0].post(Ping()).outcome
            gate.open()
            #expect(await parked.outcome.isHandled)
            return outcome
        case .handled, .unhandled, .failed, .interrupted:
            let reaction: Reaction =
                switch ending {
                case .handled: .handle
                case .failed: .fail
                default: .pass
                }
            let chain = makeChain([reaction], topIsRoot: ending != .interrupted, system: system)
            return await chain[0].post(Ping()).outcome
        case .cycleDetected:
            let ring = makeChain([.pass, .pass], topIsRoot: false, system: system)
            await ring[1].link(to: ring[0])
            let outcome = await ring[0].post(Ping()).outcome
            await ring[1].link(to: nil)
            return outcome
        case .timedOut:
            let chain = makeChain([.park(gate, then: .handled)], system: system)
            let ticket = await chain[0].post(Ping(), options: SendOptions(timeout: .seconds(1)))
            try await gate.waitForArrivals(1)
            await clock.advance(by: .seconds(1))
            return await ticket.outcome
        case .cancelledByShutdown, .cancelledByTicket, .abandoned:
            let chain = makeChain([.park(gate, then: .handled)], system: system)
            let ticket = await chain[0].post(Ping())
            try await gate.waitForArrivals(1)
            switch ending {
            case .cancelledByShutdown:
                let shutdown = Task { await system.shutDown(gracePeriod: .seconds(1)) }
                try await clock.waitForTimers(1)
                await clock.advance(by: .seconds(1))  // the grace period ends: the post is cut short
                _ = await shutdown.value
            case .cancelledByTicket: ticket.cancel()
            default: await ticket.abandon()
            }
            return await ticket.outcome
        }
    }

    @Test(
        "a post that ends other than handled reaches the sink and the streams once, with its outcome; a handled one, or one its own ticket cancelled, does not",
        arguments: Ending.allCases)
    func everyUnhandledEnding(_ ending: Ending) async throws {
        let recorder = DeadLetterRecorder()
        let clock = ManualClock()
        let system = EventSystem(
            deadLetters: recorder.sink,
            postingLimit: EventSystem.PostingLimit(maxOutstanding: 1, whenFull: .reject), clock: clock)
        let deadLetters = system.observeDeadLetters()
        let outcomes = system.observeOutcomes()

        let outcome = try await post(endingAs: ending, in: system, on: clock)

        #expect(outcome.kind == ending.kind)
        if ending == .cancelledByShutdown {
            #expect(outcome.cancelledDetails?.reason == .shutdown)
        }
        let expected = ending.isDeadLettered ? [outcome.eventID] : []
        #expect(recorder.outcomes.map(\.eventID) == expected)
        #expect(recorder.outcomes.map(\.kind) == (ending.isDeadLettered ? [ending.kind] : []))
        #expect(deadLetters._unreadCount == expected.count)
        #expect(outcomes._unreadCount == (ending == .rejected ? 2 : 1))  // and the post it was refused for
        #expect(
            outcome.goesToDeadLetters
                == [.unhandled, .interrupted, .rejected, .cancelledByShutdown].contains(ending))
    }

    @Test(
        "an awaited send that fails, times out or ends in a cycle is not dead-lettered: its sender holds the outcome"
    )
    func awaitedSendsKeepTheirRule() async throws {
        let store = TestStore()
        // Watched by the store: a dead letter of any of these sends would be an element left
        // unread in it, which `finish()` names.
        let deadLetters = store.observeDeadLetters()
        let failing = makeChain([.fail], system: store.system)
        let gate = Gate()
        defer { gate.open() }
        let parking = makeChain([.park(gate, then: .handled)], system: store.system)
        let ring = makeChain([.pass, .pass], topIsRoot: false, system: store.system)
        await ring[1].link(to: ring[0])

        #expect(await store.send(Ping(), from: failing[0]).kind == .failed)
        async let timingOut = store.send(Ping(), from: parking[0], options: SendOptions(timeout: .seconds(1)))
        try await gate.waitForArrivals(1)
        await store.advance(by: .seconds(1))
        #expect(await timingOut.kind == .timedOut)
        #expect(await store.send(Ping(), from: ring[0]).kind == .cycleDetected)
        await ring[1].link(to: nil)

        #expect(deadLetters._unreadCount == 0)
        await store.finish()
    }

    @Test(
        "a shutdown's report and the dead letters count every post once: each that did not end handled is one letter"
    )
    func shutdownReportAgrees() async throws {
        let recorder = DeadLetterRecorder()
        let system = EventSystem(deadLetters: recorder.sink)
        let deadLetters = system.observeDeadLetters()
        let gate = Gate()
        let handled = makeChain([.handle], system: system)
        let failing = makeChain([.fail], system: system)
        let parked = makeChain([.park(gate, then: .handled)], system: system)

        var tickets: [Ticket] = []
        for _ in 0..<3 { tickets.append(await handled[0].post(Ping())) }
        for _ in 0..<2 { tickets.append(await failing[0].post(Ping())) }
        for _ in 0..<2 { tickets.append(await parked[0].post(Ping())) }
        for ticket in tickets.prefix(5) { _ = await ticket.outcome }
        try await gate.waitForArrivals(1)

        let report = await system.shutDown(gracePeriod: .zero)
        tickets.append(await handled[0].post(Ping()))  // refused
        gate.open()

        var ended: [Outcome] = []
        for ticket in tickets { ended.append(await ticket.outcome) }
        #expect(report.finished + report.endedEarly == 2)
        #expect(report.endedEarly == 2)
        let notHandled = ended.filter { !$0.isHandled }
        #expect(notHandled.count == 5)
        #expect(Set(recorder.outcomes.map(\.eventID)) == Set(notHandled.map(\.eventID)))
        #expect(recorder.count == notHandled.count)
        // The streams end with the shutdown: the post refused after it is not in them.
        #expect(deadLetters._unreadCount == notHandled.count - 1)
    }
}

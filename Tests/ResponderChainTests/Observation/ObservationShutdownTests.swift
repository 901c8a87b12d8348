import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures
private typealias O = ObservationFixtures

@Suite("Observation at shutdown", .timeLimit(.minutes(1)))
struct ObservationShutdownTests {
    @Test("every post accepted before the shutdown appears before the streams end, and then the loops end")
    func drainedPostsThenEnd() async throws {
        let gate = Gate()
        let system = EventSystem()
        let node = F.Node("node", .park(gate), root: true, system: system)
        let outcomeStream = system.observeOutcomes()
        let deadLetterStream = system.observeDeadLetters()
        async let outcomes = O.readToEnd(outcomeStream)
        async let deadLetters = O.readToEnd(deadLetterStream)

        var tickets: [Ticket] = []
        for number in 0..<3 {
            tickets.append(await node.post(F.Numbered(sender: 0, number: number)))
        }
        try await gate.waitForArrivals(1)
        let shutdown = Task { await system.shutDown(gracePeriod: .seconds(60)) }
        try await waitUntil("the shutdown has begun") { system.isShuttingDown }
        // Refused once the shutdown has begun: observed, and dead-lettered.
        let refused = await node.post(F.Numbered(sender: 1, number: 0))
        gate.open()
        let report = await shutdown.value
        #expect(report == ShutdownReport(finished: 3, endedEarly: 0, refused: 1))

        let observed = await outcomes
        #expect(observed.map(\.outcome.eventID) == [refused.eventID] + tickets.map(\.eventID))
        #expect(observed.map(\.outcome.kind) == [.rejected, .handled, .handled, .handled])
        let letters = await deadLetters
        #expect(letters.map(\.outcome.eventID) == [refused.eventID])
        #expect(letters.first?.outcome.rejectedDetails?.reason == .shuttingDown)
    }

    @Test("posts ended by the shutdown appear as dead letters before the streams end")
    func endedEarlyAreDeadLetters() async throws {
        let gate = Gate()
        let system = EventSystem()
        let node = F.Node("node", .park(gate), root: true, system: system)
        let deadLetterStream = system.observeDeadLetters()
        async let deadLetters = O.readToEnd(deadLetterStream)
        for number in 0..<3 {
            _ = await node.post(F.Numbered(sender: 0, number: number))
        }
        try await gate.waitForArrivals(1)

        let report = await system.shutDown(gracePeriod: .zero)
        #expect(report.endedEarly == 3)
        let letters = await deadLetters
        #expect(letters.map(\.outcome.kind) == [.cancelled, .cancelled, .cancelled])
        #expect(letters.allSatisfy { $0.outcome.cancelledDetails?.reason == .shutdown })
    }

    @Test("a stream opened after the shutdown is finished from the start")
    func openedAfterShutdown() async {
        let system = EventSystem()
        await system.shutDown(gracePeriod: .zero)
        #expect(await O.readToEnd(system.observeOutcomes()).isEmpty)
        #expect(system._openObservationStreams == 0)
    }
}

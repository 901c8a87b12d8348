import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures
private typealias O = ObservationFixtures

@Suite("Observation at shutdown", .timeLimit(.minutes(1)))
struct ObservationShutdownTests {
    @Test("every post accepted before the shutdown appears before the streams end, and then the loops end")
    func drainedPostsThenEnd() async throws {
        let (gate, system, node) = F.parkedRoot()
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
        #expect(report == EventSystem.ShutdownReport(finished: 3, endedEarly: 0, refused: 1))

        let observed = await outcomes
        #expect(observed.map(\.outcome.eventID) == [refused.eventID] + tickets.map(\.eventID))
        #expect(observed.map(\.outcome.kind) == [.rejected, .handled, .handled, .handled])
        let letters = await deadLetters
        #expect(letters.map(\.outcome.eventID) == [refused.eventID])
        #expect(letters.first?.outcome.rejectedDetails?.reason == .shuttingDown)
    }

    @Test("posts ended by the shutdown appear as dead letters before the streams end")
    func endedEarlyAreDeadLetters() async throws {
        let (gate, system, node) = F.parkedRoot()
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

    @Test(
        "at a shutdown, one sender's posts keep post order within each way they ended: delivered, refused, ended while queued"
    )
    func orderAtShutdown() async throws {
        let (gate, system, node) = F.parkedRoot()
        let sender = F.Node("sender", .pass, parent: node, system: system)
        let stream = system.observeOutcomes()
        async let observed = O.readToEnd(stream)

        // 0 parks in its handler; 1, 2, 3 wait behind it in the sender's lane.
        var tickets: [Ticket] = []
        for number in 0..<4 { tickets.append(await sender.post(F.Numbered(sender: 0, number: number))) }
        try await gate.waitForArrivals(1)
        let shutdown = Task { await system.shutDown(gracePeriod: .seconds(3_600)) }
        try await system.waitUntilShuttingDown()
        // 4 and 5 are refused at once, while 0 to 3 are still under way.
        for number in 4..<6 { tickets.append(await sender.post(F.Numbered(sender: 0, number: number))) }
        shutdown.cancel()  // the grace period ends: 1 to 3 end while queued, 0 is cut short
        #expect(await shutdown.value == EventSystem.ShutdownReport(finished: 0, endedEarly: 4, refused: 2))

        let numbers = Dictionary(uniqueKeysWithValues: tickets.enumerated().map { ($1.eventID, $0) })
        let order = await observed.compactMap { numbers[$0.outcome.eventID] }
        #expect(order.sorted() == Array(0..<6))  // each once
        #expect(order.filter { (4..<6).contains($0) } == [4, 5])  // refused, in post order
        #expect(order.filter { (1..<4).contains($0) } == [1, 2, 3])  // ended while queued, in order
        // The refusals came before the grace period ended, so before every post it ended.
        let lastRefusal = try #require(order.firstIndex(of: 5))
        #expect(order.prefix(lastRefusal + 1).allSatisfy { $0 >= 4 })
    }
}

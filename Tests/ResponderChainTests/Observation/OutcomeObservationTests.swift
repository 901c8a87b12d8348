import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures
private typealias O = ObservationFixtures

@Suite("Observing outcomes", .timeLimit(.minutes(1)))
struct OutcomeObservationTests {
    @Test(
        "every send through the system appears once, in the order one task sent them, with its event, source and outcome"
    )
    func everySendAppearsOnce() async throws {
        let system = EventSystem()
        let outcomes = system.observeOutcomes()
        let handling = makeChain([.pass, .handle], system: system)
        let unhandled = makeChain([.pass, .pass], system: system)
        let failing = makeChain([.fail], system: system)
        let broken = makeChain([.pass], topIsRoot: false, system: system)

        var sent: [Outcome] = []
        for leaf in [handling[0], unhandled[0], failing[0], broken[0]] {
            sent.append(await leaf.send(Ping()))
        }

        try #require(outcomes._unreadCount == 4)
        let observed = await O.read(4, from: outcomes)
        #expect(observed.map(\.outcome.kind) == [.handled, .unhandled, .failed, .interrupted])
        #expect(observed.map(\.outcome.eventID) == sent.map(\.eventID))
        #expect(observed.allSatisfy { $0.event is Ping })
        #expect(
            observed.map(\.source.responderID)
                == [handling[0], unhandled[0], failing[0], broken[0]].map { ResponderID($0) })
        #expect(outcomes.droppedCount == 0)
    }

    @Test("a send's outcome is in the stream by the time the send returns")
    func inTheStreamWhenTheSendReturns() async {
        let system = EventSystem()
        let outcomes = system.observeOutcomes()
        let chain = makeChain([.handle], system: system)
        for count in 1...5 {
            _ = await chain[0].send(Ping())
            #expect(outcomes._unreadCount == count)
        }
    }

    @Test("posts from one sender appear once each, in the order they were posted")
    func postsInPostingOrder() async throws {
        let system = EventSystem()
        let outcomes = system.observeOutcomes()
        let node = F.Node("node", .handle, root: true, system: system)
        var tickets: [Ticket] = []
        for number in 0..<50 {
            tickets.append(await node.post(F.Numbered(sender: 0, number: number)))
        }
        for ticket in tickets { _ = await ticket.outcome }

        try #require(outcomes._unreadCount == 50)
        let observed = await O.read(50, from: outcomes)
        #expect(observed.compactMap(\.number) == Array(0..<50))
        #expect(observed.map(\.outcome.eventID) == tickets.map(\.eventID))
        #expect(observed.allSatisfy { $0.outcome.isHandled })
    }

    @Test("sends that reach no responder are observed too: a rejected post and a relay whose entry is gone")
    func undeliveredSendsAppear() async throws {
        let gate = Gate()
        let system = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 1, whenFull: .reject))
        let outcomes = system.observeOutcomes()
        let node = F.Node("node", .park(gate), root: true, system: system)

        let parked = await node.post(F.Numbered(sender: 0, number: 0))
        try await gate.waitForArrivals(1)
        let refused = await node.post(F.Numbered(sender: 0, number: 1))
        gate.open()
        _ = await parked.outcome

        var relay: Relay? = nil
        do {
            let entry = F.Node("entry", .handle, root: true, system: system)
            relay = Relay(entry: entry, label: "webhook", system: system)
        }
        let orphaned = try #require(await relay?.send(F.Numbered(sender: 1, number: 0)))

        try #require(outcomes._unreadCount == 3)
        let observed = await O.read(3, from: outcomes)
        #expect(observed.map(\.outcome.kind) == [.rejected, .handled, .interrupted])
        #expect(observed.map(\.outcome.eventID) == [refused.eventID, parked.eventID, orphaned.eventID])
        #expect(observed[2].source.description == "relay(webhook)")
    }

    @Test("a stream sees only the sends made after it was opened, and only through its own system")
    func onlyLaterSendsOfItsSystem() async {
        let system = EventSystem()
        let other = EventSystem()
        let chain = makeChain([.handle], system: system)
        let elsewhere = makeChain([.handle], system: other)
        _ = await chain[0].send(Ping())

        let outcomes = system.observeOutcomes()
        _ = await elsewhere[0].send(Ping())
        #expect(outcomes._unreadCount == 0)
        _ = await chain[0].send(Ping())
        #expect(outcomes._unreadCount == 1)
    }
}

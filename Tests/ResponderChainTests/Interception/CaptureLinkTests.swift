import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Capture under live links: the path is read once, the bubble reads it again", .timeLimit(.minutes(1)))
struct CaptureLinkTests {
    @Test("A re-link made during the capture pass takes effect in the bubble, not in the capture")
    func relinkDuringCaptureTakesEffectInTheBubble() async throws {
        let gate = Gate()
        let system = capturingSystem()
        let (journal, nodes) = journaledNodes(
            [.both(.pass, .pass), .both(.pass, .pass), .both(.park(gate, then: .pass), .pass)], system: system
        )
        let other = Node(
            "other", capture: .pass, bubble: .handle, root: true, system: system, journal: journal)

        async let sent = nodes[0].send(Ping())
        try await gate.waitForArrivals(1)
        await nodes[0].link(to: other)
        gate.open()
        let outcome = await sent

        // n1 was on the path when it was read: it captures; `other` was not: it only bubbles.
        #expect(journal.names == ["n2.capture", "n1.capture", "n0.capture", "n0.bubble", "other.bubble"])
        #expect(outcome.kind == .handled)
        #expect(outcome.handlers == [ResponderID(other)])
    }

    @Test("A cycle among the links ends the send before any handler runs")
    func cycleAmongTheLinksEndsTheSendBeforeAnyHandler() async throws {
        let (journal, nodes) = journaledNodes(
            [.both(.pass, .pass), .both(.pass, .pass), .both(.pass, .pass)], topIsRoot: false)
        await nodes[2].link(to: nodes[0])

        let outcome = await nodes[0].send(Ping())

        let cycle = try #require(outcome.cycleDetectedDetails)
        #expect(cycle.repeated == ResponderID(nodes[0]))
        #expect(cycle.closedBy == ResponderID(nodes[2]))
        #expect(outcome.hops == 0)
        #expect(journal.names.isEmpty)
    }

    @Test("A link back to the sender of a send that starts at next is a cycle too")
    func linkBackToTheSenderOfAnAtNextSendIsACycle() async throws {
        let (journal, nodes) = journaledNodes([.both(.pass, .pass), .both(.pass, .pass)], topIsRoot: false)
        await nodes[1].link(to: nodes[0])

        let outcome = await nodes[0].send(Ping(), options: .startingAtNext)

        #expect(outcome.kind == .cycleDetected)
        #expect(journal.names.isEmpty)
    }

    @Test("A chain that breaks before a root is captured as far as it goes, then ends interrupted")
    func brokenChainIsCapturedAsFarAsItGoes() async throws {
        let (journal, nodes) = journaledNodes(
            [.both(.pass, .pass), .both(.handleAndContinue, .pass)], topIsRoot: false)

        let outcome = await nodes[0].send(Ping())

        #expect(journal.names == ["n1.capture", "n0.capture", "n0.bubble", "n1.bubble"])
        let broken = try #require(outcome.interruptedDetails)
        #expect(broken.lastReached == ResponderID(nodes[1]))
        #expect(outcome.handlers == [ResponderID(nodes[1])])
        #expect(outcome.goesToDeadLetters)
    }

    @Test("A responder that leaves the chain during capture is still captured, and not bubbled")
    func responderThatLeavesDuringCaptureIsNotBubbled() async throws {
        let gate = Gate()
        let (journal, nodes) = journaledNodes([
            .both(.pass, .pass), .both(.pass, .pass), .both(.park(gate, then: .pass), .handle),
        ])

        async let sent = nodes[0].send(Ping())
        try await gate.waitForArrivals(1)
        await nodes[0].link(to: nodes[2])  // n1 leaves the chain
        gate.open()
        let outcome = await sent

        #expect(journal.names == ["n2.capture", "n1.capture", "n0.capture", "n0.bubble", "n2.bubble"])
        #expect(outcome.kind == .handled)
    }
}

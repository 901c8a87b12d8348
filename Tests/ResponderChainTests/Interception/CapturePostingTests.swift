import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Capture and posting: a sender's posts keep their order through both passes")
struct CapturePostingTests {
    @Test("Posts of one sender reach the capture handlers above it, and then the sender, in post order")
    func postsKeepTheirOrderThroughCapture() async throws {
        let (journal, nodes) = journaledNodes([
            .both(.pass, .handle), .bubble(.pass), .both(.appendTrail(then: .pass), .pass),
        ])

        var tickets: [Ticket] = []
        for number in 1...50 { tickets.append(await nodes[0].post(Numbered(number: number))) }
        var outcomes: [Outcome] = []
        for ticket in tickets { outcomes.append(await ticket.outcome) }

        #expect(outcomes.allSatisfy { $0.kind == .handled && $0.path.captureHops == 2 })
        let expected = (1...50).flatMap { ["n2.capture#\($0)", "n0.capture#\($0)", "n0.bubble#\($0)"] }
        #expect(journal.names == expected)
    }

    @Test("A post intercepted in capture resolves its ticket with the interception, and is not dead-lettered")
    func interceptedPostResolvesItsTicket() async throws {
        let letters = DeadLetterRecorder()
        let system = EventSystem(deadLetters: letters.sink, runsCapturePhase: true)
        let (journal, nodes) = journaledNodes([.bubble(.handle), .capture(.handle)], system: system)

        let outcome = await nodes[0].post(Ping()).outcome

        let handled = try #require(outcome.handledDetails)
        #expect(handled.wasIntercepted)
        #expect(journal.names == ["n1.capture"])
        await system.shutDown(gracePeriod: .zero)
        #expect(letters.letters.isEmpty)
    }
}

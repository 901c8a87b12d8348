import ResponderChain
import ResponderChainTesting
import Testing

@Suite(
    "Capture and stops: cancellation, deadlines, failures and a system without capture",
    .timeLimit(.minutes(1)))
struct CaptureStopTests {
    @Test(
        "Cancelling the sender while a capture handler is parked ends the send cancelled during that capture hop"
    )
    func cancellationDuringCapture() async throws {
        let gate = Gate()
        let (journal, nodes) = journaledNodes([
            .both(.pass, .handle), .both(.park(gate, then: .pass), .pass), .both(.pass, .pass),
        ])

        let sending = Task { await nodes[0].send(Ping()) }
        try await gate.waitForArrivals(1)
        sending.cancel()
        let outcome = await sending.value

        let stop = try #require(outcome.cancelledDetails)
        #expect(stop.phase == .capture)
        #expect(stop.responder == ResponderID(nodes[1]))
        #expect(stop.hop == 2)
        #expect(stop.whileHandling)
        #expect(stop.reason == .taskCancelled)
        #expect(journal.names == ["n2.capture", "n1.capture"])
        #expect(outcome.description == "cancelled during capture hop 2 at n1 (task cancelled)")
    }

    @Test("A deadline that passes during capture ends the send timed out in the capture phase")
    func deadlinePassesDuringCapture() async throws {
        let gate = Gate()
        let clock = ManualClock()
        let (journal, nodes) = journaledNodes(
            [.both(.pass, .handle), .both(.pass, .pass), .both(.park(gate, then: .pass), .pass)],
            system: EventSystem(runsCapturePhase: true, clock: clock))

        // The gate is never opened: only the deadline ends the wait, once the clock passes it
        // with the capture handler parked.
        async let sent = nodes[0].send(Ping(), options: SendOptions(timeout: .seconds(1)))
        try await gate.waitForArrivals(1)
        await clock.advance(by: .seconds(1))
        let outcome = await sent

        let stop = try #require(outcome.timedOutDetails)
        #expect(stop.phase == .capture)
        #expect(stop.responder == ResponderID(nodes[2]))
        #expect(stop.hop == 1)
        #expect(stop.whileHandling)
        #expect(journal.names == ["n2.capture"])
    }

    @Test("A stop seen at the end of a capture hop ends the send before the next hop")
    func stopAtTheEndOfACaptureHop() async throws {
        let journal = Journal()
        let signal = CancellationSignal()
        let system = capturingSystem()
        let top = Node("top", root: true, system: system, journal: journal)
        let canceller = Canceller(signal: signal, parent: top, system: system)
        let nodes = makeNodes([.both(.pass, .handle)], topIsRoot: false, system: system, journal: journal)
        await nodes[0].link(to: canceller)

        var options = SendOptions()
        options.withdrawal = signal
        let outcome = await nodes[0].send(Ping(), options: options)

        let stop = try #require(outcome.cancelledDetails)
        // The canceller was the only capturer above the sender: the next hop is the sender's
        // capture hop.
        #expect(stop.phase == .capture)
        #expect(stop.responder == ResponderID(nodes[0]))
        #expect(stop.hop == 2)
        #expect(!stop.whileHandling)
        #expect(stop.reason == .withdrawn)
        #expect(journal.names.isEmpty)
    }

    @Test("A capture handler that throws ends the send failed at its capture hop")
    func failingCaptureHandler() async throws {
        let (_, nodes) = journaledNodes([
            .both(.pass, .handle), .both(.fail, .pass), .both(.handleAndContinue, .pass),
        ])

        let outcome = await nodes[0].send(Ping())

        let failure = try #require(outcome.failedDetails)
        #expect(failure.error is Boom)
        #expect(failure.phase == .capture)
        #expect(failure.responder == ResponderID(nodes[1]))
        #expect(failure.hop == 2)
        #expect(outcome.handlers == [ResponderID(nodes[2])])
        #expect(outcome.description == "failed at capture hop 2, n1 threw boom")
    }

    @Test("A responder with capture handlers reached through a system without capture fails the send, typed")
    func captureHandlersWithoutACapturePassFailTheSend() async throws {
        let (journal, nodes) = journaledNodes(
            [.bubble(.pass), .both(.handle, .handle), .bubble(.handle)], system: EventSystem())

        let outcome = await nodes[0].send(Ping())

        let failure = try #require(outcome.failedDetails)
        let error = try #require(failure.error as? ResponderChainError)
        #expect(error.code == .capturePhaseDisabled)
        #expect(error.responder == ResponderID(nodes[1]))
        #expect(failure.hop == 2)
        #expect(failure.phase == .bubble)
        // Not even its bubble handler ran: the send stopped before them.
        #expect(journal.names == ["n0.bubble"])
        #expect("\(error)".contains("runsCapturePhase: true"))
    }
}

/// A capturing responder whose capture handler withdraws the send it is handling (through the
/// signal the test put in the send's options) and passes.
actor Canceller: Responder {
    nonisolated let eventSystem: EventSystem
    private let parent: (any Responder)?
    private let signal: CancellationSignal

    init(signal: CancellationSignal, parent: (any Responder)?, system: EventSystem) {
        self.signal = signal
        self.parent = parent
        self.eventSystem = system
    }

    var next: (any Responder)? { parent }

    static let strategies = Strategies<Canceller> {
        $0.onAnyEvent(phase: .capture) { canceller, _, _ in
            _ = canceller.signal.cancel(.withdrawn)
            return .pass
        }
    }
}

@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = TracingFixtures

/// The ways a send can stop early, each traced once.
private enum StopCase: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case cancelledBeforeTheFirstHop
    case cancelledDuringAHop
    case cancelledByAPostedEventsTicket
    case timedOutBeforeTheFirstHop
    case timedOutDuringAHop

    var testDescription: String { rawValue }

    var kind: Outcome.Kind {
        switch self {
        case .cancelledBeforeTheFirstHop, .cancelledDuringAHop, .cancelledByAPostedEventsTicket:
            return .cancelled
        case .timedOutBeforeTheFirstHop, .timedOutDuringAHop:
            return .timedOut
        }
    }

    /// The hop the outcome names, and whether its handler was running.
    var stop: (hop: Int, whileHandling: Bool) {
        switch self {
        case .cancelledBeforeTheFirstHop, .timedOutBeforeTheFirstHop: return (1, false)
        case .cancelledDuringAHop, .timedOutDuringAHop: return (1, true)
        case .cancelledByAPostedEventsTicket: return (2, false)
        }
    }

    /// Sends one `Ping` that stops this way, traced by `tracer`, with a dead-letter sink that
    /// must not be used.
    func send(tracer: RecordingTracer) async throws -> Outcome {
        let sink = DeadLetter.Sink { _ in Issue.record("a stopped send is not a dead letter") }
        let options = SendOptions(tracer: tracer, deadLetters: sink)
        let top = F.Station(tracing: "Top", .handle, root: true)
        switch self {
        case .cancelledBeforeTheFirstHop:
            let sending = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await top.send(F.Ping(), options: options)
            }
            return await sending.value
        case .cancelledDuringAHop:
            let gate = Gate()
            let parked = F.Station(tracing: "Parked", .park(gate), parent: top)
            let sending = Task { await parked.send(F.Ping(), options: options) }
            try await gate.waitForArrivals(1)
            sending.cancel()
            return await sending.value
        case .cancelledByAPostedEventsTicket:
            // A posted event: captured at post time, delivered from another task, its ticket
            // cancelled while hop 1 runs (the handler does not look; the system stops before hop 2).
            let gate = Gate()
            let leaf = F.Station(tracing: "Leaf", .parkThenPass(gate), parent: top)
            let capture = TraceCapture.posting(
                F.Ping(), from: .responder(leaf), through: .default, options: options)
            let ticket = CancellationSignal()
            let delivering = Task.detached {
                await Router.send(
                    F.Ping(), from: leaf, source: .responder(leaf), options: options, signal: ticket,
                    trace: capture)
            }
            try await gate.waitForArrivals(1)
            ticket.cancel(.ticket)
            gate.open()
            return await delivering.value
        case .timedOutBeforeTheFirstHop:
            let late = SendOptions(
                deadline: EventSystem.default.now.advanced(by: .seconds(-1)), tracer: tracer,
                deadLetters: sink)
            return await top.send(F.Ping(), options: late)
        case .timedOutDuringAHop:
            let gate = Gate()  // never opened: the deadline wakes the parked handler
            let parked = F.Station(tracing: "Parked", .park(gate), parent: top)
            // Long enough that the handler surely parks before it passes, even on a loaded machine.
            let soon = SendOptions(timeout: .seconds(1), tracer: tracer, deadLetters: sink)
            return await parked.send(F.Ping(), options: soon)
        }
    }
}

@Suite("Trace point events when a send stops early", .timeLimit(.minutes(1)))
struct TracingStopEventTests {
    @Test(
        "each way of stopping reports its outcome exactly once, last, and every hop entered is left",
        arguments: StopCase.allCases)
    fileprivate func stoppedOnce(_ stopCase: StopCase) async throws {
        let tracer = RecordingTracer()

        let outcome = try await stopCase.send(tracer: tracer)

        #expect(outcome.kind == stopCase.kind)
        let events = tracer.events(for: outcome.eventID)
        #expect(events.count == tracer.events.count)
        #expect(tracer.outcomes.map(\.kind) == [stopCase.kind])
        #expect(tracer.deadLetters.isEmpty)
        #expect(RecordingTracer.shape(of: events).first == "sent")
        #expect(RecordingTracer.shape(of: events).last == "finished")
        #expect(tracer.enteredHops(for: outcome.eventID) == tracer.hops(for: outcome.eventID).map(\.hop))
        switch outcome {
        case .cancelled(let stop), .timedOut(let stop):
            #expect(stop.hop == stopCase.stop.hop)
            #expect(stop.whileHandling == stopCase.stop.whileHandling)
            // A hop that was running when the send stopped is left with the cancellation.
            let running = tracer.hops(for: outcome.eventID).filter { $0.hop.number == stop.hop }
            #expect(running.map { $0.error is CancellationError } == (stop.whileHandling ? [true] : []))
        default:
            Issue.record("expected cancelled or timed out, got \(outcome)")
        }
    }

    @Test("a relay whose entry is gone still reports its send to the tracer and the dead-letter sink")
    func relayWithoutEntry() async {
        let tracer = RecordingTracer()
        let letters = DeadLetterRecorderBox()
        let relay = Relay(entry: F.Station(tracing: "Gone", .handle, root: true), label: "Webhook")

        let outcome = await relay.send(
            F.Ping(),
            options: SendOptions(
                tracer: tracer, deadLetters: DeadLetter.Sink { await letters.add($0.outcome) }))

        #expect(outcome.kind == .interrupted)
        #expect(tracer.outcomes.map(\.kind) == [.interrupted])
        #expect(tracer.eventIDs == [outcome.eventID])
        #expect(await letters.kinds == [.interrupted])
    }
}

/// The dead letters a sink received.
private actor DeadLetterRecorderBox {
    private(set) var kinds: [Outcome.Kind] = []
    func add(_ outcome: Outcome) { kinds.append(outcome.kind) }
}

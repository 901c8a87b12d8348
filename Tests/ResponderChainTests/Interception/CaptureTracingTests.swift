import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Capture in traces: capture hops are reported as such")
struct CaptureTracingTests {
    @Test("Capture hops are entered and left with their phase, and printed with an arrow")
    func captureHopsAreTracedAsSuch() async throws {
        let tracer = RecordingTracer()
        let (_, nodes) = journaledNodes(
            [.both(.pass, .handle), .bubble(.pass), .both(.tag("top", then: .handledAndContinue), .pass)],
            system: capturingSystem(tracer: tracer))

        let outcome = await nodes[0].send(Ping())

        let records = tracer.hops(for: outcome.eventID)
        #expect(records.map(\.hop.phase) == [.capture, .capture, .bubble])
        #expect(records.map(\.disposition) == [.handledAndContinue, .pass, .handled])
        #expect(
            tracer.lines(for: outcome.eventID, printer: PrintingTracer.Printer(showsDurations: false))
                .dropFirst() == [
                    "  1  ↓ n2  actor  handledAndContinue  +Tag=top",
                    "  2  ↓ n0  actor  pass",
                    "  3  n0    actor  handled",
                    "  = handled by n2, n0 after 3 hops",
                ])
        #expect(records.first?.hop.description.contains("capture hop 1 n2") == true)
    }

    @Test("A send whose chain captures nothing is traced exactly as without a capture pass")
    func noCaptureNoCaptureHops() async throws {
        let tracer = RecordingTracer()
        let nodes = makeNodes(
            [.bubble(.pass), .bubble(.handle)], system: capturingSystem(tracer: tracer), journal: Journal())

        let outcome = await nodes[0].send(Ping())

        #expect(tracer.enteredHops(for: outcome.eventID).map(\.phase) == [.bubble, .bubble])
        #expect(tracer.shape(for: outcome.eventID).count == 6)
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Tracer conformance from a NonisolatedNonsendingByDefault module")
struct TracerConformanceTests {
    @Test("a conformer with no isolation spelled is installed on a chain and scopes every hop")
    func naturalConformer() async {
        let tracer = SpanningTracer()
        let system = EventSystem(tracer: tracer)
        let top = ProbeResponder("Top", system: system)
        let leaf = ProbeResponder("Leaf", parent: top, system: system)

        let outcome = await ConformanceContext.$requestID.withValue("req-9") {
            await leaf.send(Probe())
        }

        #expect(outcome.kind == .handled)
        #expect(await leaf.seen == [Seen(span: "span 1 Leaf", requestID: "req-9")])
        #expect(await top.seen == [Seen(span: "span 2 Top", requestID: "req-9")])
        #expect(ConformanceContext.span == nil)
        let hops = tracer.recorder.hops(for: outcome.eventID)
        #expect(hops.map(\.hop.responder) == [ResponderID(leaf), ResponderID(top)])
        #expect(hops.map(\.disposition) == [.pass, .handled])
        #expect(tracer.recorder.outcomes.map(\.kind) == [.handled])
    }

    @Test("a conformer that spells nonisolated(nonsending) works per send, across the main actor")
    func explicitConformer() async {
        let tracer = ExplicitTracer()
        let top = ProbeResponder("Top")
        let screen = await ProbeScreen(parent: top)

        let outcome = await screen.send(Probe(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(await screen.seen == [Seen(span: "explicit 1", requestID: nil)])
        #expect(await top.seen == [Seen(span: "explicit 2", requestID: nil)])
        #expect(tracer.recorder.hops(for: outcome.eventID).map(\.hop.isolation) == [.mainActor, .responder])
    }

    @Test("a plain Tracer, which implements only record, runs its hops with no scope")
    func recordOnlyConformer() async {
        let tracer = PointEventsOnlyTracer()
        let top = ProbeResponder("Top")

        let outcome = await top.send(Probe(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(await top.seen == [Seen(span: nil, requestID: nil)])
        #expect(tracer.recorder.eventIDs == [outcome.eventID])
        #expect(tracer.recorder.hops(for: outcome.eventID).count == 1)
    }
}

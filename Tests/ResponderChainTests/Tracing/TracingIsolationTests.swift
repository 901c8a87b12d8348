import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = TracingFixtures

extension TracingFixtures {
    /// A root isolated to a global actor other than the main actor (the core suites'
    /// ``LedgerActor``): its hops run on it.
    @LedgerActor
    final class LaneResponder: GlobalActorResponder {
        nonisolated static var globalActor: any Actor { LedgerActor.shared }
        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }

        nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
            async throws -> Disposition
        { .handled }
    }

    /// A responder with no isolation of its own: its hop runs wherever the system runs.
    final class FreeResponder: Responder {
        let parent: any Responder
        init(parent: any Responder) { self.parent = parent }

        var next: (any Responder)? { parent }

        nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
            async throws -> Disposition
        { .pass }
    }
}

@Suite("Tracing hop isolation")
struct TracingIsolationTests {
    @Test("each hop records the isolation it ran on: main actor, own actor, another actor, none")
    func isolations() async {
        let tracer = RecordingTracer()
        let lane = F.LaneResponder()
        let free = F.FreeResponder(parent: lane)
        let station = F.Station(tracing: "Station", .pass, parent: free)
        let screen = await F.Screen("Screen", .pass, parent: station)

        // Sent from a nonisolated test: the free responder's hop runs on no actor.
        let outcome = await screen.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(
            tracer.hops(for: outcome.eventID).map(\.hop.isolation) == [
                .mainActor, .responder, .nonisolated, .actor("LedgerActor"),
            ])
        #expect(
            tracer.hops(for: outcome.eventID).map(\.hop.isolation.description) == [
                "MainActor", "actor", "nonisolated", "LedgerActor",
            ])
    }

    @Test("a hop with no isolation of its own runs on the sender's actor, and says so")
    @MainActor
    func inheritsSenderIsolation() async {
        let tracer = RecordingTracer()
        let lane = F.LaneResponder()
        let free = F.FreeResponder(parent: lane)

        let outcome = await free.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(
            tracer.hops(for: outcome.eventID).map(\.hop.isolation) == [.mainActor, .actor("LedgerActor")])
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = TracingFixtures

extension TracingFixtures {
    @globalActor
    actor LaneActor {
        static let shared = LaneActor()
    }

    /// A responder isolated to another global actor: it implements `visit` to hop onto it.
    @LaneActor
    final class LaneResponder: Responder {
        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }

        nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
            async throws -> Disposition
        { .handled }

        nonisolated(nonsending) func visit(_ event: any Event, context: inout EventContext) async
            -> Visit
        {
            await Self.visitOnLane(self, event: event, context: &context)
        }

        @LaneActor
        private static func visitOnLane(
            _ responder: LaneResponder, event: any Event, context: inout EventContext
        ) async -> Visit {
            await context.visit(responder, event: event)
        }
    }

    /// A responder with no isolation of its own: its hop runs wherever the router runs.
    final class FreeResponder: Responder {
        let parent: any Responder
        init(parent: any Responder) { self.parent = parent }

        var next: (any Responder)? { parent }

        nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
            async throws -> Disposition
        { .pass }

        nonisolated(nonsending) func visit(_ event: any Event, context: inout EventContext) async
            -> Visit
        {
            await context.visit(self, event: event)
        }
    }
}

@Suite("Tracing hop isolation")
struct TracingIsolationTests {
    @Test("each hop records the isolation it ran on: main actor, own actor, another actor, none")
    func isolations() async {
        let tracer = RecordingTracer()
        let lane = F.LaneResponder()
        let free = F.FreeResponder(parent: lane)
        let station = F.Station("Station", .pass, parent: free)
        let screen = await F.Screen("Screen", .pass, parent: station)

        // Sent from a nonisolated test: the free responder's hop runs on no actor.
        let outcome = await screen.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(
            tracer.hops(for: outcome.eventID).map(\.hop.isolation) == [
                .mainActor, .responder, .nonisolated, .actor("LaneActor"),
            ])
        #expect(
            tracer.hops(for: outcome.eventID).map(\.hop.isolation.description) == [
                "MainActor", "actor", "nonisolated", "LaneActor",
            ])
    }

    @Test("a hop with no isolation of its own runs on the sender's actor, and says so")
    @MainActor
    func inheritsSenderIsolation() async {
        let tracer = RecordingTracer()
        let lane = F.LaneResponder()
        let free = F.FreeResponder(parent: lane)

        let outcome = await free.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(tracer.hops(for: outcome.eventID).map(\.hop.isolation) == [.mainActor, .actor("LaneActor")])
    }
}

@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = TracingFixtures

@Suite("Trace recording")
struct TracingRecordingTests {
    @Test("the trace of a 5-hop send matches its path, dispositions and added info exactly")
    func fiveHopTrace() async throws {
        let tracer = RecordingTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let counter = F.Station(tracing: "Counter", .count, parent: top)
        let relay = F.Station(tracing: "Relay", .pass, parent: counter)
        let stamper = F.Station(tracing: "Stamper", .stamp("s-1"), parent: relay)
        let screen = await F.Screen("Screen", .pass, parent: stamper)

        let outcome = await screen.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        let id = outcome.eventID
        let events = tracer.events(for: id)
        #expect(events.count == tracer.events.count)
        // sent, then entered/left for each hop, then finished.
        #expect(
            tracer.shape(for: id) == [
                "sent", "enter 1", "leave 1", "enter 2", "leave 2", "enter 3", "leave 3", "enter 4",
                "leave 4", "enter 5", "leave 5", "finished",
            ])

        let hops = tracer.hops(for: id)
        let path: [ResponderID] = [
            ResponderID(screen), ResponderID(stamper), ResponderID(relay), ResponderID(counter),
            ResponderID(top),
        ]
        #expect(hops.map(\.hop.responder) == path)
        #expect(tracer.enteredHops(for: id).map(\.responder) == path)
        #expect(hops.map(\.hop.number) == [1, 2, 3, 4, 5])
        #expect(hops.map(\.disposition) == [.pass, .handledAndContinue, .pass, .pass, .handled])
        #expect(
            hops.map(\.added) == [
                [], [Hop.AddedInfo(name: "Stamp", value: "s-1")], [],
                [Hop.AddedInfo(name: "Count", value: "1")], [],
            ])
        #expect(hops.map(\.hop.isolation) == [.mainActor, .responder, .responder, .responder, .responder])
        #expect(hops.allSatisfy { $0.hop.eventName == "Ping" && $0.hop.eventID == id })

        guard case .sent(let sent) = try #require(events.first) else {
            Issue.record("the first event is not .sent")
            return
        }
        #expect(sent.eventName == "Ping")
        #expect(sent.source.responderID == ResponderID(screen))
        #expect(sent.queued == nil)
        guard case .finished(.handled(let handled)) = try #require(events.last) else {
            Issue.record("the last event is not .finished(.handled)")
            return
        }
        #expect(handled.handlers == [ResponderID(stamper), ResponderID(top)])
        #expect(handled.hops == 5)
    }

    @Test("a tracer on the chain's system sees its sends, and a per-send tracer replaces it")
    func perChainAndPerSend() async {
        let chainTracer = RecordingTracer()
        let sendTracer = RecordingTracer()
        let system = EventSystem(tracer: chainTracer)
        let top = F.Station(tracing: "Top", .handle, root: true, system: system)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top, system: system)

        let first = await leaf.send(F.Ping())
        let second = await leaf.send(F.Ping(), options: SendOptions(tracer: sendTracer))

        #expect(chainTracer.eventIDs == [first.eventID])
        #expect(sendTracer.eventIDs == [second.eventID])
        #expect(chainTracer.hops(for: first.eventID).count == 2)
        #expect(sendTracer.hops(for: second.eventID).count == 2)
    }

    @Test("a hop whose handler throws is left with the error, and the send ends failed")
    func failingHop() async throws {
        let tracer = RecordingTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .fail, parent: top)

        let outcome = await leaf.send(F.Ping(), options: SendOptions(tracer: tracer))

        let hops = tracer.hops(for: outcome.eventID)
        #expect(hops.count == 1)
        let record = try #require(hops.first)
        #expect(record.disposition == nil)
        #expect(record.error is F.Boom)
        #expect(tracer.outcomes.map(\.kind) == [.failed])
    }

    @Test(
        "a hop's added information: nothing when the information was not written, the entries that differ when it was"
    )
    func addedInformation() {
        var info = EventInfo()
        info[F.Stamp.self] = "a"
        let before = info
        // Not written: the copies share their storage, and nothing is printed.
        #expect(info.addedInfo(since: before).isEmpty)
        // Written with the same value: compared by printed value, still nothing.
        info[F.Stamp.self] = "a"
        #expect(info.addedInfo(since: before).isEmpty)
        // Replaced and added.
        info[F.Stamp.self] = "b"
        info[F.Count.self] = 2
        #expect(
            info.addedInfo(since: before) == [
                Hop.AddedInfo(name: "Count", value: "2"), Hop.AddedInfo(name: "Stamp", value: "b"),
            ])
    }
}

@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = TracingFixtures

@Suite("Trace correlation")
struct TracingCorrelationTests {
    @Test("an awaited send has one correlation id at every hop, and each send its own")
    func awaitedSends() async {
        let tracer = RecordingTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let middle = F.Station(tracing: "Middle", .count, parent: top)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: middle)

        let first = await leaf.send(F.Ping(), options: SendOptions(tracer: tracer))
        let second = await leaf.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(first.eventID != second.eventID)
        #expect(tracer.eventIDs == [first.eventID, second.eventID])
        for outcome in [first, second] {
            let hops = tracer.hops(for: outcome.eventID)
            #expect(hops.count == 3)
            #expect(hops.allSatisfy { $0.hop.eventID == outcome.eventID })
        }
        // Handlers see the same id in their context.
        #expect(await leaf.sightingsInScope.map(\.eventID) == [first.eventID, second.eventID])
        #expect(await top.sightingsInScope.map(\.eventID) == [first.eventID, second.eventID])
    }

    @Test("a posted event keeps the id taken at post time, at every hop, and each post its own")
    func postedEvents() async {
        let tracer = RecordingTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top)
        let options = SendOptions(tracer: tracer)

        let captures = [
            TraceCapture.posting(F.Ping(), from: .responder(leaf), through: .default, options: options),
            TraceCapture.posting(F.Ping(), from: .responder(leaf), through: .default, options: options),
        ]
        var outcomes: [Outcome] = []
        for capture in captures {
            // A detached task stands in for the queue that delivers posted events.
            let delivered = await Task.detached {
                await Router.send(
                    F.Ping(), from: leaf, source: .responder(leaf), options: options, trace: capture)
            }.value
            outcomes.append(delivered)
        }

        #expect(captures[0].eventID != captures[1].eventID)
        #expect(outcomes.map(\.eventID) == captures.map(\.eventID))
        #expect(tracer.eventIDs == captures.map(\.eventID))
        for capture in captures {
            let hops = tracer.hops(for: capture.eventID)
            #expect(hops.map(\.hop.responder) == [ResponderID(leaf), ResponderID(top)])
            #expect(hops.allSatisfy { $0.hop.eventID == capture.eventID })
        }
        #expect(await top.sightingsInScope.map(\.eventID) == captures.map(\.eventID))
        let queued = tracer.events.compactMap { event -> Bool? in
            if case .sent(let sent) = event { return sent.queued != nil }
            return nil
        }
        #expect(queued == [true, true])
    }

    @Test("the trace context captured at post time is restored around handlers in the delivering task")
    func contextSurvivesQueueing() async {
        let tracer = F.ScopedTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top)
        let options = SendOptions(tracer: tracer)

        let capture = F.$requestID.withValue("req-7") {
            TraceCapture.posting(F.Ping(), from: .responder(leaf), through: .default, options: options)
        }
        let delivered = await Task.detached {
            // Task-locals do not follow into the queue: nothing is bound here.
            #expect(F.requestID == nil)
            return await Router.send(
                F.Ping(), from: leaf, source: .responder(leaf), options: options, trace: capture)
        }.value

        #expect(delivered.kind == .handled)
        #expect(await leaf.sightingsInScope.map(\.requestID) == ["req-7"])
        #expect(await top.sightingsInScope.map(\.requestID) == ["req-7"])

        // Without the capture, a delivery in another task would not see it.
        let uncaptured = await Task.detached {
            await Router.send(F.Ping(), from: leaf, source: .responder(leaf), options: options)
        }.value
        #expect(uncaptured.kind == .handled)
        #expect(await top.sightingsInScope.map(\.requestID) == ["req-7", nil])
    }

    @Test("an awaited send restores the sender's context too")
    func awaitedSendCapturesAtSendTime() async {
        let tracer = F.ScopedTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let outcome = await F.$requestID.withValue("req-1") {
            await top.send(F.Ping(), options: SendOptions(tracer: tracer))
        }
        #expect(outcome.kind == .handled)
        #expect(await top.sightingsInScope.map(\.requestID) == ["req-1"])
    }

    @Test("a scoping tracer captures its context once per send, not once per hop")
    func capturesOncePerSend() async {
        let tracer = F.ScopedTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        let middle = F.Station(tracing: "Middle", .pass, parent: top)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: middle)

        let first = await leaf.send(F.Ping(), options: SendOptions(tracer: tracer))
        #expect(first.hops == 3)
        #expect(tracer.captures.withLock { $0 } == 1)

        // A post captures at post time; its delivery, in another task, captures nothing more.
        let ticket = await leaf.post(F.Ping(), options: SendOptions(tracer: tracer))
        #expect(await ticket.outcome.hops == 3)
        #expect(tracer.captures.withLock { $0 } == 2)
    }
}

@testable import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

private typealias F = TracingFixtures

@Suite("Tracer gate")
struct TracingGateTests {
    @Test("a tracer accepts every send unless it says otherwise")
    func acceptsByDefault() async {
        let tracer = RecordingTracer()
        let top = F.Station(tracing: "Top", .handle, root: true)
        #expect(tracer.shouldTrace(F.Ping(), from: .responder(top)))

        let outcome = await top.send(F.Ping(), options: SendOptions(tracer: tracer))
        #expect(tracer.shape(for: outcome.eventID) == ["sent", "enter 1", "leave 1", "finished"])
    }

    @Test(
        "a declined send is not traced at all: no point event, no scope, no context captured, no trace bound")
    func declinedSendIsUntraced() async {
        let journal = F.Journal()
        let tracer = F.NestingTracer("A", accepts: false, journal: journal)
        let system = EventSystem(tracer: tracer)
        let top = F.Station(tracing: "Top", .handle, root: true, system: system)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top, system: system)
        let orphan = F.Station(tracing: "Orphan", .pass, system: system)
        let gone = Relay(entry: F.Station(tracing: "Gone"), label: "Webhook", system: system)

        let awaited = await leaf.send(F.Ping())
        let posted = await leaf.post(F.Ping()).outcome
        let interrupted = await orphan.send(F.Ping())
        let relayed = await gone.send(F.Ping())

        #expect(awaited.kind == .handled)
        #expect(posted.kind == .handled)
        #expect(interrupted.kind == .interrupted)
        #expect(relayed.kind == .interrupted)
        #expect(tracer.recorder.events.isEmpty)
        // The gate was asked once per send, and nothing else happened: no capture, no record.
        #expect(journal.all == Array(repeating: "A gate -", count: 4))
        // The handlers ran in no scope.
        #expect(await top.sightingsInScope.map(\.scopes) == [[], []])

        // The capture holds no trace, so every hop takes the untraced path (and a declined post
        // reads no clock).
        let capture = TraceCapture(
            F.Ping(), from: .responder(leaf), system: system, options: .default)
        #expect(capture.trace == nil)
        let postCapture = TraceCapture.posting(
            F.Ping(), from: .responder(leaf), through: system, options: .default)
        #expect(postCapture.trace == nil)
        #expect(postCapture.postedAt == nil)
    }

    @Test(
        "the gate is asked once per send, in the sender's task, before the context is captured — awaited and posted"
    )
    func askedOncePerSendInSendersTask() async {
        let journal = F.Journal()
        let tracer = F.NestingTracer("A", journal: journal)
        let top = F.Station(tracing: "Top", .handle, root: true)
        let middle = F.Station(tracing: "Middle", .pass, parent: top)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: middle)
        let options = SendOptions(tracer: tracer)

        let awaited = await F.$requestID.withValue("req-1") {
            await leaf.send(F.Ping(), options: options)
        }
        #expect(awaited.hops == 3)
        #expect(Array(journal.all.prefix(3)) == ["A gate req-1", "A capture", "A sent"])
        #expect(journal.all.filter { $0.contains("gate") } == ["A gate req-1"])

        journal.reset()
        let ticket = await F.$requestID.withValue("req-2") {
            await leaf.post(F.Ping(), options: options)
        }
        let posted = await ticket.outcome
        #expect(posted.hops == 3)
        // Asked at post time, in the poster's task; the delivery, in another task, asks nothing.
        #expect(Array(journal.all.prefix(3)) == ["A gate req-2", "A capture", "A sent"])
        #expect(journal.all.filter { $0.contains("gate") } == ["A gate req-2"])
        #expect(tracer.recorder.shape(for: posted.eventID).last == "finished")
    }

    @Test("a send is traced from sent to finished or not at all, whatever the gate answers while it travels")
    func decidedOncePerSend() async {
        let journal = F.Journal()
        let tracer = F.GatedTracer("A", accepts: true, journal: journal)
        let top = F.Station(tracing: "Top", .handle, root: true)
        // Hop 2 turns the gate off; its sibling chain turns it back on.
        let closing = F.Station(tracing: "Closing", .perform({ tracer.accept(false) }), parent: top)
        let opening = F.Station(tracing: "Opening", .perform({ tracer.accept(true) }), parent: top)
        let leafBelowClosing = F.Station(tracing: "Leaf", .pass, parent: closing)
        let leafBelowOpening = F.Station(tracing: "Leaf", .pass, parent: opening)
        let options = SendOptions(tracer: tracer)

        // Accepted when sent: still traced to the end after the gate closed at hop 2.
        let accepted = await leafBelowClosing.send(F.Ping(), options: options)
        #expect(accepted.hops == 3)
        #expect(
            tracer.recorder.shape(for: accepted.eventID) == [
                "sent", "enter 1", "leave 1", "enter 2", "leave 2", "enter 3", "leave 3", "finished",
            ])

        // Declined when sent: nothing at all, although the gate opened at hop 2.
        let declined = await leafBelowOpening.send(F.Ping(), options: options)
        #expect(declined.hops == 3)
        #expect(tracer.recorder.events(for: declined.eventID).isEmpty)

        // The gate, open again, is asked for the next send.
        let next = await top.send(F.Ping(), options: options)
        #expect(tracer.recorder.shape(for: next.eventID) == ["sent", "enter 1", "leave 1", "finished"])
        #expect(journal.all.filter { $0.contains("gate") }.count == 3)
    }

    /// Traces one send in `n` (the documented example).
    final class SampledTracer: Tracer {
        let n: UInt64
        let inner: any Tracer
        private let sends = Atomic<UInt64>(0)

        init(oneIn n: UInt64, _ inner: any Tracer) {
            self.n = n
            self.inner = inner
        }

        func shouldTrace(_ event: any Event, from source: EventSource) -> Bool {
            sends.wrappingAdd(1, ordering: .relaxed).oldValue % n == 0
        }

        func record(_ event: TraceEvent) { inner.record(event) }
    }

    @Test("sampling one send in three traces sends 1, 4 and 7 completely, and the others not at all")
    func sampling() async {
        let recorder = RecordingTracer()
        let tracer = SampledTracer(oneIn: 3, recorder)
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top)

        var outcomes: [Outcome] = []
        for _ in 0..<7 {
            outcomes.append(await leaf.send(F.Ping(), options: SendOptions(tracer: tracer)))
        }

        #expect(recorder.eventIDs == [outcomes[0].eventID, outcomes[3].eventID, outcomes[6].eventID])
        for index in [0, 3, 6] {
            #expect(recorder.shape(for: outcomes[index].eventID).count == 6)
        }
    }
}

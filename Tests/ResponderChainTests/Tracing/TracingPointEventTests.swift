import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = TracingFixtures

@Suite("Trace point events", .timeLimit(.minutes(1)))
struct TracingPointEventTests {
    /// Sends one `Ping` that ends with `kind`, traced by `tracer`, with a dead-letter sink.
    private func send(endingWith kind: Outcome.Kind, tracer: RecordingTracer) async throws -> Outcome {
        let sink = DeadLetter.Sink { _ in }
        let options = SendOptions(tracer: tracer, deadLetters: sink)
        switch kind {
        case .handled:
            return await F.Station(tracing: "A", .handle).send(F.Ping(), options: options)
        case .unhandled:
            return await F.Station(tracing: "Root", .pass, root: true).send(F.Ping(), options: options)
        case .interrupted:
            return await F.Station(tracing: "Orphan", .pass).send(F.Ping(), options: options)
        case .cycleDetected:
            let a = F.Station(tracing: "A", .pass)
            let b = F.Station(tracing: "B", .pass, parent: a)
            await a.link(to: b)
            return await a.send(F.Ping(), options: options)
        case .cancelled:
            let gate = Gate()
            let parked = F.Station(tracing: "Parked", .park(gate))
            let sending = Task { await parked.send(F.Ping(), options: options) }
            try await gate.waitForArrivals(1)
            sending.cancel()
            return await sending.value
        case .timedOut:
            let late = SendOptions(
                deadline: EventSystem.default.now.advanced(by: .seconds(-1)), tracer: tracer,
                deadLetters: sink)
            return await F.Station(tracing: "A", .handle).send(F.Ping(), options: late)
        case .failed:
            return await F.Station(tracing: "A", .fail).send(F.Ping(), options: options)
        case .rejected:
            let gate = Gate()
            let full = EventSystem(
                postingLimit: EventSystem.PostingLimit(maxOutstanding: 1, whenFull: .reject))
            let parked = F.Station(tracing: "Parked", .park(gate), system: full)
            let first = await parked.post(F.Ping())  // untraced: fills the system
            let rejected = await parked.post(F.Ping(), options: options).outcome
            gate.open()
            _ = await first.outcome
            return rejected
        }
    }

    @Test(
        "each outcome kind produces its terminal point event exactly once, last",
        arguments: Outcome.Kind.allCases)
    func oneTerminalEvent(kind: Outcome.Kind) async throws {
        let tracer = RecordingTracer()
        let outcome = try await send(endingWith: kind, tracer: tracer)

        #expect(outcome.kind == kind)
        #expect(tracer.outcomes.map(\.kind) == [kind])
        #expect(tracer.outcomes.map(\.eventID) == [outcome.eventID])
        #expect(tracer.eventIDs == [outcome.eventID])
        guard case .finished = try #require(tracer.events.last) else {
            Issue.record("the last event is not .finished")
            return
        }
        let deadLettered = kind == .unhandled || kind == .interrupted || kind == .rejected
        #expect(tracer.deadLetters.map(\.kind) == (deadLettered ? [kind] : []))
        // Every hop entered is left.
        #expect(tracer.enteredHops(for: outcome.eventID) == tracer.hops(for: outcome.eventID).map(\.hop))
    }

    @Test("the dead-lettered event comes after the sink returned and before finished")
    func deadLetterOrder() async throws {
        let tracer = RecordingTracer()
        let seenBySink = Locked(0)
        let sink = DeadLetter.Sink { _ in
            seenBySink.withLock { $0 = tracer.events.count }
        }
        let outcome = await F.Station(tracing: "Root", .pass, root: true)
            .send(F.Ping(), options: SendOptions(tracer: tracer, deadLetters: sink))

        let events = tracer.events(for: outcome.eventID)
        // sent, entered, left were recorded when the sink ran; then deadLettered, finished.
        #expect(seenBySink.withLock { $0 } == 3)
        #expect(events.count == 5)
        guard case .deadLettered(let letter) = events[3], case .finished = events[4] else {
            Issue.record("expected deadLettered then finished, got \(events)")
            return
        }
        #expect(letter.kind == .unhandled)
    }
}

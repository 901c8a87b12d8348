@testable import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

private typealias F = TracingFixtures

@Suite("Multiplex tracer")
struct TracingMultiplexTests {
    @Test(
        "each tracer's gate decides for itself: the send reaches the accepting tracers, in order, each completely"
    )
    func recordsToAcceptingInOrder() async {
        let journal = F.Journal()
        let first = F.GatedTracer("A", journal: journal)
        let declining = F.GatedTracer("B", accepts: false, journal: journal)
        let last = F.GatedTracer("C", journal: journal)
        let tracer = MultiplexTracer([first, declining, last])
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top)

        let outcome = await leaf.send(F.Ping(), options: SendOptions(tracer: tracer))

        let shape = ["sent", "enter 1", "leave 1", "enter 2", "leave 2", "finished"]
        #expect(first.recorder.shape(for: outcome.eventID) == shape)
        #expect(last.recorder.shape(for: outcome.eventID) == shape)
        #expect(declining.recorder.events.isEmpty)
        // Each gate once, in order; then each event to A, then to C.
        #expect(
            journal.all == ["A gate -", "B gate -", "C gate -"] + shape.flatMap { ["A \($0)", "C \($0)"] })
    }

    @Test("a send every tracer declines is untraced: no trace is bound")
    func noneAccepted() async {
        let journal = F.Journal()
        let tracer = MultiplexTracer([
            F.GatedTracer("A", accepts: false, journal: journal),
            F.NestingTracer("B", accepts: false, journal: journal),
        ])
        let top = F.Station(tracing: "Top", .handle, root: true)

        let outcome = await top.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(journal.all == ["A gate -", "B gate -"])
        #expect(await top.sightingsInScope.map(\.scopes) == [[]])
        let capture = TraceCapture(
            F.Ping(), from: .responder(top), system: .default, options: SendOptions(tracer: tracer))
        #expect(capture.trace == nil)
        #expect(journal.all.count == 4)
    }

    @Test(
        "scopes nest in order, the first outermost, each with the context its own tracer captured; plain tracers add none"
    )
    func scopesNestInOrder() async {
        let journal = F.Journal()
        let outer = F.NestingTracer("outer", journal: journal)
        let plain = F.GatedTracer("plain", journal: journal)
        let declining = F.NestingTracer("declining", accepts: false, journal: journal)
        let inner = F.NestingTracer("inner", journal: journal)
        let tracer = MultiplexTracer([outer, plain, declining, inner])
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top)

        let ticket = await F.$requestID.withValue("req-9") {
            await leaf.post(F.Ping(), options: SendOptions(tracer: tracer))
        }
        let outcome = await ticket.outcome

        #expect(outcome.kind == .handled)
        // Captured at post time, each right after its own gate; restored in the delivering task.
        #expect(
            Array(journal.all.prefix(6)) == [
                "outer gate req-9", "outer capture", "plain gate req-9", "declining gate req-9",
                "inner gate req-9", "inner capture",
            ])
        let nested = ["outer(outer:req-9)", "inner(inner:req-9)"]
        #expect(await leaf.sightingsInScope.map(\.scopes) == [nested])
        #expect(await top.sightingsInScope.map(\.scopes) == [nested])
        for recorder in [outer.recorder, plain.recorder, inner.recorder] {
            #expect(recorder.shape(for: outcome.eventID).count == 6)
        }
        #expect(declining.recorder.events.isEmpty)
    }

    @Test("a multiplexer inside a multiplexer contributes its accepting tracers in its place")
    func nested() async {
        let journal = F.Journal()
        let tracer = MultiplexTracer([
            F.NestingTracer("A", journal: journal),
            MultiplexTracer([
                F.GatedTracer("B", accepts: false, journal: journal), F.NestingTracer("C", journal: journal),
            ]),
            F.NestingTracer("D", journal: journal),
        ])
        let top = F.Station(tracing: "Top", .handle, root: true)

        let outcome = await top.send(F.Ping(), options: SendOptions(tracer: tracer))

        #expect(outcome.kind == .handled)
        #expect(await top.sightingsInScope.map(\.scopes) == [["A(A:-)", "C(C:-)", "D(D:-)"]])
        #expect(journal.all.filter { $0.hasSuffix(" sent") } == ["A sent", "C sent", "D sent"])
    }

    @Test(
        "a scope that never runs its body, among others, ends the send failed with a tracer error naming its tracer",
        arguments: [
            (TracingFixtures.MisbehavingTracer.Fault.skipsHandler, 0), (.skipsHandler, 1),
            (.throwsInstead, 0),
            (.throwsInstead, 1),
        ])
    func handlerNotRun(fault: TracingFixtures.MisbehavingTracer.Fault, position: Int) async throws {
        let misbehaving = F.MisbehavingTracer(fault)
        let nesting = F.NestingTracer("good")
        let tracers: [any Tracer] = position == 0 ? [misbehaving, nesting] : [nesting, misbehaving]
        let station = F.Station(tracing: "A", .handle, root: true)

        let outcome = await station.send(
            F.Ping(), options: SendOptions(tracer: MultiplexTracer(tracers)))

        let failure = try #require(outcome.failedDetails)
        let violation = try #require(failure.error as? ResponderChainError)
        #expect(violation.code == .tracerSkippedHandlers)
        #expect(violation.message.hasPrefix("tracer MisbehavingTracer did not run"))
        #expect(violation.responder == ResponderID(station))
        if case .throwsInstead = fault {
            #expect(violation.cause is F.Boom)
        } else {
            #expect(violation.cause == nil)
        }
        #expect(await station.sightingsInScope.isEmpty)
        // Both tracers saw the hop left with the violation, and the send finish.
        for recorder in [misbehaving.recorder, nesting.recorder] {
            #expect(recorder.hops(for: outcome.eventID).first?.error is ResponderChainError)
            #expect(recorder.outcomes.map(\.kind) == [.failed])
        }
    }

    @Test(
        "a scope that calls its body twice, outside or inside another, runs the handlers once and is refused, by name",
        arguments: [0, 1])
    func handlerRunAgain(position: Int) async {
        let misbehaving = F.MisbehavingTracer(.runsHandlerTwice)
        let nesting = F.NestingTracer("good")
        let tracers: [any Tracer] = position == 0 ? [misbehaving, nesting] : [nesting, misbehaving]
        let top = F.Station(tracing: "Top", .handle, root: true)
        let leaf = F.Station(tracing: "Leaf", .pass, parent: top)

        let outcome = await leaf.send(F.Ping(), options: SendOptions(tracer: MultiplexTracer(tracers)))

        #expect(outcome.kind == .handled)
        #expect(await leaf.sightingsInScope.count == 1)
        #expect(await top.sightingsInScope.count == 1)
        let refused = misbehaving.secondCallErrors.withLock { $0 }
        #expect(refused.map(\.code) == [.tracerRanHandlersAgain, .tracerRanHandlersAgain])
        #expect(refused.allSatisfy { $0.message.hasPrefix("tracer MisbehavingTracer ran the handlers") })
        #expect(misbehaving.recorder.hops(for: outcome.eventID).map(\.disposition) == [.pass, .handled])
        #expect(nesting.recorder.hops(for: outcome.eventID).map(\.disposition) == [.pass, .handled])
    }

    @Test(
        "called directly, the multiplexer's gate accepts when any tracer does, and record forwards to every tracer"
    )
    func directCalls() {
        let journal = F.Journal()
        let declining = F.GatedTracer("A", accepts: false, journal: journal)
        let accepting = F.GatedTracer("B", journal: journal)
        let station = F.Station(tracing: "A")

        #expect(MultiplexTracer([declining, accepting]).shouldTrace(F.Ping(), from: .responder(station)))
        #expect(!MultiplexTracer([declining]).shouldTrace(F.Ping(), from: .responder(station)))
        #expect(!MultiplexTracer([]).shouldTrace(F.Ping(), from: .responder(station)))

        let event = TraceEvent.finished(
            .handled(
                Outcome.Handled(
                    path: Outcome.Path(
                        eventID: EventID(epoch: 0, sequence: 1), hops: 1, info: EventInfo()),
                    stoppedAt: ResponderID(station))))
        MultiplexTracer([declining, accepting]).record(event)
        #expect(declining.recorder.outcomes.count == 1)
        #expect(accepting.recorder.outcomes.count == 1)
    }
}

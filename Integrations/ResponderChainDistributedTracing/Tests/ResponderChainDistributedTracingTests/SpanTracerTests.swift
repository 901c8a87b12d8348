import InMemoryTracing
import ResponderChain
import ResponderChainDistributedTracing
import ResponderChainTesting
import Testing
import Tracing

private struct Probe: Event {}
private struct Boom: Error {}
private enum RequestKey: ServiceContextKey { typealias Value = String }

/// A root that notes the request identifier of the `ServiceContext` its handler runs in, and
/// handles the event.
private func requestWitness() -> ScriptedResponder {
    ScriptedResponder(
        "witness", .init([.note { _, _ in ServiceContext.current?[RequestKey.self] }]), root: true)
}

/// The request identifiers a ``requestWitness()`` noted, in order.
private func requests(noted witness: ScriptedResponder) async -> [String?] {
    await witness.notes.map { $0 as? String }
}

/// What a handler saw of the current span.
private struct Seen: Sendable, Equatable {
    let spanID: String?
    let traceID: String?
}

/// A responder that notes what it sees of the current span, then fails when `fails`, or else
/// handles the event at the root (it has no parent) and passes it on below.
private func station(_ name: String, parent: ScriptedResponder? = nil, fails: Bool = false)
    -> ScriptedResponder
{
    let note = ScriptedResponder.Step.note { _, _ in
        let span = ServiceContext.current?.inMemorySpanContext
        return Seen(spanID: span?.spanID, traceID: span?.traceID)
    }
    let script: ScriptedResponder.Script =
        fails ? .init([note], throwing: Boom()) : .init([note], then: parent == nil ? .handled : .pass)
    return ScriptedResponder(name, script, parent: parent, root: parent == nil)
}

/// What a ``station(_:parent:fails:)`` saw of the current span, in order.
private func seen(by station: ScriptedResponder) async -> [Seen] {
    await station.notes.compactMap { $0 as? Seen }
}

@Suite("Span per hop (swift-distributed-tracing)")
struct SpanTracerTests {
    @Test("each hop runs in its own span, a child of the span current where the event was sent")
    func spanPerHop() async throws {
        let backend = InMemoryTracer()
        let tracer = SpanTracer(tracer: backend)
        let top = station("Top")
        let leaf = station("Leaf", parent: top)

        let (outcome, requestSpan) = await backend.withSpan("request") { span in
            (await leaf.send(Probe(), options: SendOptions(tracer: tracer)), span.spanContext)
        }

        #expect(outcome.kind == .handled)
        let hops = backend.finishedSpans.filter { $0.operationName != "request" }
        #expect(hops.map(\.operationName) == ["Probe at Leaf", "Probe at Top"])
        #expect(hops.allSatisfy { $0.parentSpanID == requestSpan.spanID })
        #expect(hops.allSatisfy { $0.traceID == requestSpan.traceID })
        #expect(hops.map { $0.attributes.get("responder.hop") } == [.int64(1), .int64(2)])
        #expect(
            hops.map { $0.attributes.get("responder.disposition") } == [.string("pass"), .string("handled")])
        #expect(
            hops.allSatisfy {
                $0.attributes.get("responder.event_id") == .string(outcome.eventID.debugDescription)
            })
        // The handlers ran inside their hop's span.
        #expect(await seen(by: leaf) == [Seen(spanID: hops[0].spanID, traceID: requestSpan.traceID)])
        #expect(await seen(by: top) == [Seen(spanID: hops[1].spanID, traceID: requestSpan.traceID)])
    }

    @Test("a stored post recovered after a restart runs its hops as children of the sender's span")
    func storedPostKeepsItsTrace() async throws {
        let backend = InMemoryTracer()
        let tracer = SpanTracer(tracer: backend)
        let store = EventSystem.InMemoryPostStore()
        let gate = Gate()
        let first = EventSystem(tracer: tracer, storage: .store(store))
        let busy = ScriptedResponder("desk", .park(gate), root: true, system: first)
        try first.register(busy, as: "desk")
        _ = await busy.post(Probe())  // holds the lane: the next post stays queued
        try await gate.waitForArrivals(1)
        let requestSpan = await backend.withSpan("request") { span in
            _ = await busy.post(Probe())
            return span.spanContext
        }
        let shuttingDown = Task { await first.shutDown(gracePeriod: .seconds(30)) }
        try await waitUntil("the shutdown began") { first.isShuttingDown }
        gate.open()
        #expect(await shuttingDown.value.kept == 1)

        let second = EventSystem(tracer: tracer, storage: .store(store))
        let desk = ScriptedResponder("desk", .handle, root: true, system: second)
        try second.register(desk, as: "desk")
        try await second.recoverStoredPosts()
        try await waitUntil("the kept post is handled", observing: second) { await desk.seen.count == 1 }
        let recovered = try #require(
            backend.finishedSpans.last { $0.operationName == "Probe at desk" })
        #expect(recovered.traceID == requestSpan.traceID)
        #expect(recovered.parentSpanID == requestSpan.spanID)
    }

    @Test("a handler's error is recorded on its hop's span")
    func errorOnSpan() async throws {
        let backend = InMemoryTracer()
        let failing = station("Failing", fails: true)

        let outcome = await failing.send(Probe(), options: SendOptions(tracer: SpanTracer(tracer: backend)))

        #expect(outcome.kind == .failed)
        let span = try #require(backend.finishedSpans.first)
        #expect(span.errors.count == 1)
        #expect(span.errors.first?.error is Boom)
        #expect(span.status?.code == .error)
    }

    @Test("a context captured in one task is restored around the handler in another")
    func capturedContextCrossesTasks() async throws {
        let backend = InMemoryTracer()
        let tracer = SpanTracer(tracer: backend)
        // Posting code captures in the poster's task…
        let (captured, requestSpan) = backend.withSpan("post") { span in
            (tracer.captureContext(), span.spanContext)
        }
        let hop = Hop(
            eventID: EventID(epoch: 0, sequence: 1), number: 1, responder: ResponderID(station("Queued")),
            eventName: "Probe", isolation: .nonisolated)
        // …and delivers from another task, where task-locals did not follow.
        let inside = await Task.detached {
            #expect(ServiceContext.current == nil)
            var seen: String?
            _ = try? await tracer.withHop(Hop.Scope(hop: hop, context: captured)) {
                seen = ServiceContext.current?.inMemorySpanContext?.parentSpanID
                return .handled
            }
            return seen
        }.value

        #expect(inside == requestSpan.spanID)
        #expect(backend.finishedSpans.map(\.operationName).sorted() == ["Probe at Queued", "post"])
    }

    @Test(
        "with a no-op backend, a send from a task with no context is declined; one with a context is traced")
    func noOpGate() async throws {
        let noOp = SpanTracer(tracer: NoOpTracer())
        let witness = requestWitness()
        #expect(!noOp.shouldTrace(Probe(), from: .responder(witness)))
        #expect(SpanTracer(tracer: InMemoryTracer()).shouldTrace(Probe(), from: .responder(witness)))
        var request = ServiceContext.topLevel
        request[RequestKey.self] = "req-1"
        ServiceContext.withValue(request) {
            #expect(noOp.shouldTrace(Probe(), from: .responder(witness)))
        }
    }

    @Test("with a no-op backend, the sender's context reaches the handlers, awaited and posted")
    func noOpCarriesContext() async throws {
        let tracer = SpanTracer(tracer: NoOpTracer())
        let witness = requestWitness()
        var request = ServiceContext.topLevel
        request[RequestKey.self] = "req-2"

        let ticket = await ServiceContext.withValue(request) {
            _ = await witness.send(Probe(), options: SendOptions(tracer: tracer))
            return await witness.post(Probe(), options: SendOptions(tracer: tracer))
        }
        _ = await ticket.outcome
        // Posted: delivered from another task, where the poster's task-locals did not follow.
        #expect(await requests(noted: witness) == ["req-2", "req-2"])
    }
}

import InMemoryTracing
import ResponderChain
import ResponderChainDistributedTracing
import Testing
import Tracing

private struct Probe: Event {}
private struct Boom: Error {}
private enum RequestKey: ServiceContextKey { typealias Value = String }

/// Notes the request identifier of the `ServiceContext` its handler runs in.
private actor Witness: Responder {
    private(set) var requests: [String?] = []

    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }

    static let strategies = Strategies<Witness> {
        $0.on(Probe.self) { witness, _, _ in
            witness.requests.append(ServiceContext.current?[RequestKey.self])
            return .handled
        }
    }
}

/// What a handler saw of the current span.
private struct Seen: Sendable, Equatable {
    let spanID: String?
    let traceID: String?
}

private actor Station: Responder {
    let name: String
    let parent: Station?
    let fails: Bool
    private(set) var seen: [Seen] = []

    init(_ name: String, parent: Station? = nil, fails: Bool = false) {
        self.name = name
        self.parent = parent
        self.fails = fails
    }

    var next: (any Responder)? { parent }
    nonisolated var isRoot: Bool { parent == nil }
    nonisolated var label: String { name }

    static let strategies = Strategies<Station> {
        $0.on(Probe.self) { station, _, _ in
            let span = ServiceContext.current?.inMemorySpanContext
            station.seen.append(Seen(spanID: span?.spanID, traceID: span?.traceID))
            if station.fails { throw Boom() }
            return station.parent == nil ? .handled : .pass
        }
    }
}

@Suite("Span per hop (swift-distributed-tracing)")
struct SpanTracerTests {
    @Test("each hop runs in its own span, a child of the span current where the event was sent")
    func spanPerHop() async throws {
        let backend = InMemoryTracer()
        let tracer = SpanTracer(tracer: backend)
        let top = Station("Top")
        let leaf = Station("Leaf", parent: top)

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
            hops.allSatisfy { $0.attributes.get("responder.event_id") == .string("\(outcome.eventID)") })
        // The handlers ran inside their hop's span.
        #expect(await leaf.seen == [Seen(spanID: hops[0].spanID, traceID: requestSpan.traceID)])
        #expect(await top.seen == [Seen(spanID: hops[1].spanID, traceID: requestSpan.traceID)])
    }

    @Test("a handler's error is recorded on its hop's span")
    func errorOnSpan() async throws {
        let backend = InMemoryTracer()
        let failing = Station("Failing", fails: true)

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
            eventID: EventID(rawValue: 1), number: 1, responder: ResponderID(Station("Queued")),
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
        let witness = Witness()
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
        let witness = Witness()
        var request = ServiceContext.topLevel
        request[RequestKey.self] = "req-2"

        let ticket = await ServiceContext.withValue(request) {
            _ = await witness.send(Probe(), options: SendOptions(tracer: tracer))
            return await witness.post(Probe(), options: SendOptions(tracer: tracer))
        }
        _ = await ticket.outcome
        // Posted: delivered from another task, where the poster's task-locals did not follow.
        #expect(await witness.requests == ["req-2", "req-2"])
    }
}

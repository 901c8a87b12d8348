import InMemoryTracing
import Instrumentation
import RemoteOrders
import ResponderChain
import ResponderChainDistributedTracing
import ResponderChainGRPC
import ResponderChainTesting
import Synchronization
import Testing
import Tracing

@Suite("Trace context across the remote link")
struct TraceContextTests {
    /// The gateway's system and the backend's, each with its own in-memory tracer behind a
    /// `SpanTracer`; the link writes its hop's context with the gateway's tracer, the entries
    /// read it with the backend's.
    private struct TracedSplit {
        let frontTracer = InMemoryTracer()
        let backTracer = InMemoryTracer()
        let requests = RequestLog()
        let f0: Station
        let link: RemoteLink
        let b: [Station]

        init() {
            let front = EventSystem(tracer: SpanTracer(tracer: frontTracer))
            let back = EventSystem(tracer: SpanTracer(tracer: backTracer))
            let b1 = Station("b1", .handle, root: true, system: back)
            let b0 = Station("b0", .pass, next: b1, system: back)
            b = [b0, b1]
            let entries = RemoteEntries(["orders": b0], registry: ordersRegistry(), instrument: backTracer)
            link = RemoteLink(
                entry: "orders", transport: LoggingTransport(InProcessTransport(entries), log: requests),
                registry: ordersRegistry(), label: "link", system: front, instrument: frontTracer)
            f0 = Station("f0", .pass, next: link, system: front)
        }
    }

    @Test(
        "with a span tracer on both sides, the backend's hop spans join the gateway's trace as children of the link's hop span"
    )
    func spansJoin() async throws {
        let split = TracedSplit()
        let outcome = await split.frontTracer.withSpan("checkout request") { _ in
            await split.f0.send(PlaceOrder(sku: "A-1"))
        }
        #expect(outcome.handledDetails?.stoppedAt.label == "b1")

        let front = split.frontTracer.finishedSpans
        let request = try #require(front.first { $0.operationName == "checkout request" })
        let linkHop = try #require(front.first { $0.operationName.hasSuffix(" at link") })
        #expect(linkHop.traceID == request.traceID)
        #expect(linkHop.parentSpanID == request.spanID)

        let back = split.backTracer.finishedSpans
        #expect(back.map(\.operationName).sorted() == ["PlaceOrder at b0", "PlaceOrder at b1"])
        for span in back {
            #expect(span.traceID == request.traceID, "\(span.operationName) is in another trace")
            #expect(span.parentSpanID == linkHop.spanID, "\(span.operationName) is not under the link's hop")
        }
        let headers = try #require(split.requests.all.first?.traceHeaders)
        #expect(headers[InMemoryTracer.spanIDKey] == linkHop.spanID)
    }

    @Test("a posted event's context crosses too: the backend's spans join the trace the post was made in")
    func postedEventsJoin() async throws {
        let split = TracedSplit()
        let ticket = await split.frontTracer.withSpan("batch") { _ in
            await split.f0.post(PlaceOrder(sku: "A-2"))
        }
        #expect(await ticket.outcome.kind == .handled)
        let request = try #require(split.frontTracer.finishedSpans.first { $0.operationName == "batch" })
        let back = split.backTracer.finishedSpans
        #expect(back.count == 2)
        #expect(back.allSatisfy { $0.traceID == request.traceID })
    }

    /// A gateway whose link writes and reads only `traceparent` (a W3C propagator's header), to a
    /// backend probe that handles every ``PlaceOrder``, noting the `traceparent` its handler sees
    /// ("none" without one).
    private struct TraceparentSplit {
        let requests = RequestLog()
        let probe: ScriptedResponder
        let gateway: Station

        /// The `traceparent` of each order the probe handled, in order.
        var seen: [String] { get async { await probe.notes.compactMap { $0 as? String } } }

        init() {
            let instrument = TraceparentInstrument()
            probe = ScriptedResponder(
                "probe", .init([.note { _, _ in ServiceContext.current?[TraceparentKey.self] ?? "none" }]),
                system: EventSystem(tracer: SpanTracer()), handling: [PlaceOrder.self])
            let entries = RemoteEntries(["orders": probe], registry: ordersRegistry(), instrument: instrument)
            let front = EventSystem()
            let link = RemoteLink(
                entry: "orders", transport: LoggingTransport(InProcessTransport(entries), log: requests),
                registry: ordersRegistry(), system: front, instrument: instrument)
            gateway = Station("gateway", .pass, next: link, system: front)
        }
    }

    @Test("a W3C traceparent the sender's instrument writes reaches the handlers on the other side unchanged")
    func traceparentCrosses() async throws {
        let split = TraceparentSplit()
        let traceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        var context = ServiceContext.topLevel
        context[TraceparentKey.self] = traceparent
        let outcome = await ServiceContext.$current.withValue(context) {
            await split.gateway.send(PlaceOrder(sku: "A-3"))
        }
        #expect(outcome.kind == .handled)
        #expect(split.requests.all.first?.traceHeaders == ["traceparent": traceparent])
        #expect(await split.seen == [traceparent])
    }

    @Test("without a trace context nothing is written, and the other side posts with none")
    func nothingToCarry() async throws {
        let split = TraceparentSplit()
        #expect(await split.gateway.send(PlaceOrder(sku: "A-4")).kind == .handled)
        #expect(split.requests.all.first?.traceHeaders == [:])
        #expect(await split.seen == ["none"])
    }
}

/// The requests a transport was given.
final class RequestLog: Sendable {
    private let requests = Mutex<[RemoteRequest]>([])
    var all: [RemoteRequest] { requests.withLock { $0 } }
    func append(_ request: RemoteRequest) { requests.withLock { $0.append(request) } }
}

/// A transport that logs each request, then hands it on.
struct LoggingTransport: RemoteTransport {
    let base: any RemoteTransport
    let log: RequestLog

    init(_ base: any RemoteTransport, log: RequestLog) {
        self.base = base
        self.log = log
    }

    func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        log.append(request)
        return try await base.deliver(request)
    }

    func registryNames() async throws -> RemoteRegistryNames { try await base.registryNames() }
}

/// A W3C `traceparent`, kept in a `ServiceContext`.
enum TraceparentKey: ServiceContextKey {
    typealias Value = String
}

/// An instrument that propagates only the `traceparent` header, as a W3C propagator does.
struct TraceparentInstrument: Instrument {
    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext, into carrier: inout Carrier, using injector: Inject
    ) where Inject.Carrier == Carrier {
        if let traceparent = context[TraceparentKey.self] {
            injector.inject(traceparent, forKey: "traceparent", into: &carrier)
        }
    }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier, into context: inout ServiceContext, using extractor: Extract
    ) where Extract.Carrier == Carrier {
        if let traceparent = extractor.extract(key: "Traceparent", from: carrier) {
            context[TraceparentKey.self] = traceparent
        }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

/// Writes `name>` and `<name` around a hop of a ``Wrapped`` responder.
private func journaling(
    _ name: String, _ journal: Journal
)
    -> @Sendable (isolated Wrapped, any Event, inout EventContext, HopMiddleware.Next) async throws ->
    Disposition
{
    { wrapped, _, context, next in
        journal.append("\(name)>")
        let disposition = try await next(&context)
        journal.append("<\(name)")
        return disposition
    }
}

/// An actor whose table is built per instance, so each test gives it its own wrappers.
actor Wrapped: Responder {
    nonisolated let name: String
    nonisolated let eventSystem: EventSystem
    nonisolated let strategies: Strategies<Wrapped>
    nonisolated let isRoot: Bool
    private let parent: (any Responder)?

    init(
        _ name: String, parent: (any Responder)? = nil, system: EventSystem, journal: Journal,
        handler: Reaction? = .handle, _ build: (inout Strategies<Wrapped>) -> Void = { _ in }
    ) {
        self.name = name
        self.parent = parent
        self.eventSystem = system
        self.isRoot = parent == nil
        self.strategies = Strategies { table in
            build(&table)
            if let handler {
                table.on(Ping.self) { wrapped, _, context in
                    journal.append("\(wrapped.name).handler")
                    return try await perform(handler, by: wrapped.name, context: &context)
                }
            }
        }
    }

    var next: (any Responder)? { parent }
    nonisolated var label: String { name }
}

/// Skips `next` and stops the event: the handlers never run.
struct Deny: HopMiddleware {
    let responderLabel: String

    func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext, next: HopMiddleware.Next
    ) async throws -> Disposition {
        guard responder.label != responderLabel else { return .handled }
        return try await next(&context)
    }
}

/// Throws `Boom` instead of running the hop at one responder.
struct Refuse: HopMiddleware {
    let responderLabel: String

    func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext, next: HopMiddleware.Next
    ) async throws -> Disposition {
        if responder.label == responderLabel { throw Boom() }
        return try await next(&context)
    }
}

@Suite("Middleware: code around hops, per chain and per responder, in a documented order")
struct HopMiddlewareTests {
    /// `leaf`, whose handler reacts with `handler` and whose own wrappers `build` adds, below the
    /// root `top`, whose handler reacts with `topHandler`: both in a system of their own without
    /// wrappers, writing to a new journal.
    private func wrappedLeaf(
        handler: Reaction, below topHandler: Reaction = .handle,
        _ build: sending (inout Strategies<Wrapped>) -> Void
    ) -> (journal: Journal, top: Wrapped, leaf: Wrapped) {
        let journal = Journal()
        let system = EventSystem()
        let top = Wrapped("top", system: system, journal: journal, handler: topHandler)
        let leaf = Wrapped("leaf", parent: top, system: system, journal: journal, handler: handler, build)
        return (journal, top, leaf)
    }

    @Test(
        "System middleware runs outermost in array order, then the responder's in registration order, then the handlers"
    )
    func wrappersComposeInTheDocumentedOrder() async throws {
        let journal = Journal()
        let system = EventSystem(middleware: [
            JournalingWrapper(label: "A", journal: journal), JournalingWrapper(label: "B", journal: journal),
        ])
        let leaf = Wrapped("leaf", system: system, journal: journal) {
            $0.use(journaling("one", journal))
            $0.use(journaling("two", journal))
        }

        let outcome = await leaf.send(Ping())

        #expect(outcome.kind == .handled)
        #expect(
            journal.names == [
                "A>leaf.bubble", "B>leaf.bubble", "one>", "two>", "leaf.handler", "<two", "<one", "<B", "<A",
            ])
    }

    @Test("System middleware runs at every hop, also where the responder has no handler for the event")
    func systemWrappersRunAtEveryHop() async throws {
        let journal = Journal()
        let system = EventSystem(middleware: [JournalingWrapper(label: "W", journal: journal)])
        let top = Wrapped("top", system: system, journal: journal)
        let middle = Wrapped("middle", parent: top, system: system, journal: journal, handler: nil)
        let leaf = Wrapped("leaf", parent: middle, system: system, journal: journal, handler: .pass)

        let outcome = await leaf.send(Ping())

        #expect(outcome.hops == 3)
        #expect(
            journal.names == [
                "W>leaf.bubble", "leaf.handler", "<W", "W>middle.bubble", "<W", "W>top.bubble", "top.handler",
                "<W",
            ])
    }

    @Test("Middleware that skips next stops the event at its hop, unseen by the handlers")
    func wrapperThatSkipsNextStopsTheEvent() async throws {
        let journal = Journal()
        let system = EventSystem(middleware: [Deny(responderLabel: "middle")])
        let top = Wrapped("top", system: system, journal: journal)
        let middle = Wrapped("middle", parent: top, system: system, journal: journal)
        let leaf = Wrapped("leaf", parent: middle, system: system, journal: journal, handler: .pass)

        let outcome = await leaf.send(Ping())

        #expect(journal.names == ["leaf.handler"])
        let handled = try #require(outcome.handledDetails)
        #expect(handled.stoppedAt == ResponderID(middle))
    }

    @Test("A responder's middleware can change the disposition its handlers returned")
    func wrapperChangesTheDisposition() async throws {
        let (journal, _, leaf) = wrappedLeaf(handler: .pass) {
            $0.use { _, _, context, next in
                let disposition = try await next(&context)
                return disposition == .pass ? .handled : disposition
            }
        }

        let outcome = await leaf.send(Ping())

        #expect(outcome.handlers == [ResponderID(leaf)])
        #expect(journal.names == ["leaf.handler"])
    }

    @Test("Middleware can catch a handler's failure and decide instead")
    func wrapperCatchesAFailure() async throws {
        let (_, top, leaf) = wrappedLeaf(handler: .fail) {
            $0.use { _, _, context, next in
                do {
                    return try await next(&context)
                } catch is Boom {
                    context.info[Tag.self] = "recovered"
                    return .pass
                }
            }
        }

        let outcome = await leaf.send(Ping())

        #expect(outcome.kind == .handled)
        #expect(outcome.handlers == [ResponderID(top)])
        #expect(outcome.info[Tag.self] == "recovered")
    }

    @Test("Middleware that throws ends the send failed at its hop, with its error")
    func throwingWrapperFailsTheSend() async throws {
        let journal = Journal()
        let system = EventSystem(middleware: [Refuse(responderLabel: "top")])
        let top = Wrapped("top", system: system, journal: journal)
        let leaf = Wrapped("leaf", parent: top, system: system, journal: journal, handler: .pass)

        let outcome = await leaf.send(Ping())

        let failure = try #require(outcome.failedDetails)
        #expect(failure.error is Boom)
        #expect(failure.responder == ResponderID(top))
        #expect(failure.hop == 2)
        #expect(journal.names == ["leaf.handler"])
    }

    @Test("Middleware runs around capture hops too, with the phase in the context")
    func wrappersRunAroundCaptureHops() async throws {
        let journal = Journal()
        let system = capturingSystem(middleware: [JournalingWrapper(label: "W", journal: journal)])
        let nodes = makeNodes([.bubble(.handle), .capture(.pass)], system: system, journal: journal)

        let outcome = await nodes[0].send(Ping())

        #expect(outcome.kind == .handled)
        #expect(
            journal.names == [
                "W>n1.capture", "n1.capture", "<W", "W>n0.bubble", "n0.bubble", "<W",
            ])
    }

    @Test("A hop's traced result and duration are those of the hop with its middleware")
    func tracerSeesTheWrappedHop() async throws {
        let journal = Journal()
        let tracer = RecordingTracer()
        let system = EventSystem(tracer: tracer, middleware: [Deny(responderLabel: "leaf")])
        let leaf = Wrapped("leaf", system: system, journal: journal, handler: .pass)

        let outcome = await leaf.send(Ping())

        #expect(tracer.hops(for: outcome.eventID).map(\.disposition) == [.handled])
        #expect(journal.names.isEmpty)
    }

    @Test("Information middleware adds is seen by the handlers and by the hops above")
    func wrapperInformationTravelsUp() async throws {
        let (_, _, leaf) = wrappedLeaf(
            handler: .appendTrail(then: .pass), below: .appendTrail(then: .handled)
        ) {
            $0.use { wrapped, _, context, next in
                context.info[Trail.self, default: []].append("before")
                defer { context.info[Trail.self, default: []].append("after") }
                return try await next(&context)
            }
        }

        let outcome = await leaf.send(Ping())

        #expect(outcome.info[Trail.self] == ["before", "leaf", "after", "top"])
    }
}

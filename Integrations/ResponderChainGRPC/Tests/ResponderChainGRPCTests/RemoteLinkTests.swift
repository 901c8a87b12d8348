import struct Foundation.Data
import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import Synchronization
import Testing

@Suite("A remote link: one outcome for a chain split across processes", .timeLimit(.minutes(1)))
struct RemoteLinkTests {
    @Test(
        "an event handled in the other process ends handled there, with both sides' hops, handlers and information"
    )
    func handledRemotely() async throws {
        let chain = SplitChain(back: [.reserve(42), .handle, .pass], frontMove: .keep)
        var options = SendOptions()
        options.info[CustomerID.self] = "c-7"

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"), options: options)

        let handled = try #require(outcome.handledDetails)
        #expect(handled.stoppedAt.label == "b1")
        #expect(handled.hops == 5)  // f0, f1, link; b0, b1
        #expect(handled.handlers.map(\.label) == ["f1", "b0", "b1"])
        #expect(handled.info[CustomerID.self] == "c-7")  // crossed there and back
        #expect(handled.info[Reservation.self] == 42)  // added there
        #expect(handled.info[InfoLeftRemote.self] == nil)
        #expect(await chain.b[0].seen == ["A-1 customer=c-7"])
        #expect(await chain.b[2].seen.isEmpty)
        #expect(chain.frontLetters.count == 0)
    }

    @Test(
        "an event a capture handler intercepts there comes back intercepted, by that responder; the capture counts stay this chain's"
    )
    func interceptedRemotely() async throws {
        let back = EventSystem(runsCapturePhase: true)
        let gatekeeper = Gatekeeper(system: back)
        let entry = Station("b0", .handle, next: gatekeeper, system: back)
        let entries = RemoteEntries(["orders": entry], registry: ordersRegistry())
        let front = EventSystem()
        let link = RemoteLink(
            entry: "orders", transport: InProcessTransport(entries), registry: ordersRegistry(),
            label: "link",
            system: front)
        let f0 = Station("f0", .pass, next: link, system: front)

        let outcome = await f0.send(PlaceOrder(sku: "A-1"))

        let handled = try #require(outcome.handledDetails)
        #expect(handled.wasIntercepted)
        #expect(handled.stoppedAt.label == "gatekeeper")
        #expect(handled.hops == 3)  // f0, the link; the gatekeeper's capture hop
        #expect(handled.handlers.map(\.label) == ["gatekeeper"])
        #expect(outcome.path.captureHops == 0)  // the front ran no capture pass
        #expect(await entry.seen.isEmpty)
    }

    @Test("the same remote responder has the same identity in every outcome, and different ones differ")
    func remoteIdentities() async throws {
        let chain = SplitChain(back: [.keep, .handle, .pass])

        let first = try #require(await chain.f0.send(PlaceOrder(sku: "A")).handledDetails)
        let second = try #require(await chain.f0.send(PlaceOrder(sku: "B")).handledDetails)

        #expect(first.handlers == second.handlers)
        #expect(first.handlers[0] != first.handlers[1])
        #expect(first.stoppedAt == second.stoppedAt)
    }

    @Test(
        "an event nobody handles there ends unhandled at the other process's root, dead-lettered on both sides"
    )
    func unhandledRemotely() async throws {
        let chain = SplitChain(back: [.pass, .pass, .pass])

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        let unhandled = try #require(outcome.unhandledDetails)
        #expect(unhandled.root.label == "b2")
        #expect(unhandled.hops == 6)
        #expect(chain.frontLetters.outcomes.map(\.kind) == [.unhandled])
        #expect(chain.backLetters.outcomes.map(\.kind) == [.unhandled])
    }

    @Test(
        "a handler that throws there ends the send failed at its hop, with the error's type and description")
    func failedRemotely() async throws {
        let chain = SplitChain(back: [.pass, .fail, .pass])

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        let failure = try #require(outcome.failedDetails)
        #expect(failure.responder.label == "b1")
        #expect(failure.hop == 5)
        let error = try #require(failure.error as? RemoteHandlerError)
        #expect(error.type.hasSuffix("OutOfStock"))
        #expect(error.message == "out of stock")
    }

    @Test("an event whose type is not registered fails at the link, typed, and nothing is sent")
    func unregisteredEvent() async throws {
        let chain = SplitChain()

        let outcome = await chain.f0.send(LocalOnly())

        let failure = try #require(outcome.failedDetails)
        #expect(failure.responder == ResponderID(chain.link))
        guard case .unregisteredEvent(let type) = failure.error as? RemoteLinkError else {
            Issue.record("expected unregisteredEvent, got \(failure.error)")
            return
        }
        #expect(type.hasSuffix("LocalOnly"))
        #expect(await chain.b[0].seen.isEmpty)
    }

    @Test(
        "information under a key neither registered nor kept local keeps the event from crossing; kept local, it stays in the outcome"
    )
    func unregisteredInfo() async throws {
        var options = SendOptions()
        options.info[FrontNote.self] = "gift wrap"

        let strict = SplitChain()
        let refused = await strict.f0.send(PlaceOrder(sku: "A-1"), options: options)
        #expect(refused.failedDetails?.error as? RemoteLinkError == .unregisteredInfo(["FrontNote"]))
        #expect(await strict.b[0].seen.isEmpty)

        var lenient = ordersRegistry()
        lenient.keepLocal(FrontNote.self)
        let chain = SplitChain(registry: lenient)
        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"), options: options)
        #expect(outcome.isHandled)
        #expect(outcome.info[FrontNote.self] == "gift wrap")
    }

    @Test("information the other side adds but cannot send back is named in the outcome, not dropped unseen")
    func infoLeftRemote() async throws {
        let chain = SplitChain(back: [.scribble, .handle, .pass])

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        #expect(outcome.isHandled)
        #expect(outcome.info[InfoLeftRemote.self] == ["BackendScratch"])
    }

    @Test(
        "a link that cannot reach the other process, or loses the call, ends the send interrupted at itself with the cause, once, dead-lettered",
        arguments: [
            (
                RemoteLinkError.unreachable("connection refused"),
                RemoteLinkError.unreachable("connection refused")
            ),
            (.lost("stream reset"), .lost("stream reset")),
            (.unreadableReply("garbage"), .unreadableReply("garbage")),
        ])
    func transportFailures(thrown: RemoteLinkError, cause: RemoteLinkError) async throws {
        let failing = FailingTransport(thrown)
        let chain = SplitChain(transport: { _ in failing })

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        let broken = try #require(outcome.interruptedDetails)
        #expect(broken.lastReached == ResponderID(chain.link))
        #expect(broken.cause as? RemoteLinkError == cause)
        #expect(broken.hops == 3)
        #expect(failing.calls.load(ordering: .relaxed) == 1)  // at most once: never retried
        #expect(chain.frontLetters.outcomes.map(\.kind) == [.interrupted])
    }

    @Test("any other transport error is reported as lost: the event may have run there")
    func otherTransportErrors() async throws {
        struct Weird: Error {}
        let chain = SplitChain(transport: { _ in FailingTransport(Weird()) })

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        guard case .lost = outcome.interruptedDetails?.cause as? RemoteLinkError else {
            Issue.record("expected lost, got \(outcome)")
            return
        }
    }

    @Test(
        "a request the other side refuses — unknown entry, unknown event — ends interrupted at the link, cause refused"
    )
    func refusals() async throws {
        let unknownEntry = SplitChain(entry: "nope")
        let first = await unknownEntry.f0.send(PlaceOrder(sku: "A-1"))
        #expect(first.interruptedDetails?.cause as? RemoteLinkError == .refused(.unknownEntry("nope")))

        let unknownEvent = SplitChain(backRegistry: RemoteRegistry())
        let second = await unknownEvent.f0.send(PlaceOrder(sku: "A-1"))
        #expect(
            second.interruptedDetails?.cause as? RemoteLinkError == .refused(.unknownEvent("orders.place")))
        #expect(await unknownEvent.b[0].seen.isEmpty)
    }

    @Test("the registry check names what the other side lacks")
    func registryCheck() async throws {
        try await SplitChain().link.checkRegistry()

        var partial = RemoteRegistry()
        try partial.register(PlaceOrder.self, as: "orders.place")
        let chain = SplitChain(backRegistry: partial)
        await #expect(
            throws: RemoteLinkError.registryMismatch(
                missingEvents: [], missingInfo: ["customer-id", "handled-by", "reservation"])
        ) {
            try await chain.link.checkRegistry()
        }
    }

    @Test("registering a name or a type twice is refused, typed")
    func registryRefusals() throws {
        var registry = RemoteRegistry()
        try registry.register(PlaceOrder.self, as: "orders.place")
        #expect(throws: RemoteRegistryError.typeRegistered("PlaceOrder")) {
            try registry.register(PlaceOrder.self, as: "other")
        }
        try registry.register(info: CustomerID.self, as: "customer")
        #expect(throws: RemoteRegistryError.nameTaken("customer")) {
            try registry.register(info: Reservation.self, as: "customer")
        }
    }

    @Test(
        "an example given at registration is served with the names as its JSON, over gRPC too; a name without one has none, and an example whose JSON does not read back is refused"
    )
    func registryExamples() async throws {
        var registry = RemoteRegistry()
        try registry.register(
            PlaceOrder.self, as: "orders.place", example: PlaceOrder(sku: "A-1", quantity: 2))
        try registry.register(info: CustomerID.self, as: "customer-id", example: "c-1")
        try registry.register(info: Reservation.self, as: "reservation")
        let expected = RemoteRegistryNames(
            events: ["orders.place"], info: ["customer-id", "reservation"],
            eventExamples: ["orders.place": Data(#"{"quantity":2,"sku":"A-1"}"#.utf8)],
            infoExamples: ["customer-id": Data(#""c-1""#.utf8)], eventVersions: ["orders.place": 1...1],
            wireVersions: WireFormat.readVersions)
        #expect(registry.names == expected)
        #expect(
            registry.names.description == """
                event orders.place {"quantity":2,"sku":"A-1"}
                info customer-id "c-1"
                info reservation (no example)
                """)

        let entries = RemoteEntries([:], registry: registry)
        let server = RemoteChainServer(entries: entries, port: 0)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.run() }
            defer { server.beginGracefulShutdown() }
            let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: try await server.listeningPort)
            group.addTask { try await transport.run() }
            defer { transport.shutDown() }
            #expect(try await transport.registryNames() == expected)
        }

        #expect {
            try registry.register(Lopsided.self, as: "lopsided", example: Lopsided())
        } throws: { error in
            guard case .unusableExample("lopsided", let what) = error as? RemoteRegistryError else {
                return false
            }
            return what.contains("never read")
        }
        #expect(registry.names == expected, "a refused registration leaves nothing behind")
    }
}

/// An event whose `Codable` conformance does not read what it writes.
private struct Lopsided: Event, Codable {
    init() {}
    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "never read"))
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode("lopsided")
    }
}

@Suite("A remote link under stops, limits and shutdown", .timeLimit(.minutes(1)))
struct RemoteLinkStopTests {
    @Test("the send's deadline crosses: a handler parked there is stopped, and the send ends timed out")
    func deadlineCrosses() async throws {
        let gate = Gate()  // never opened: only the deadline ends the wait
        let chain = SplitChain(back: [.park(gate), .handle, .pass])

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"), options: SendOptions(timeout: .seconds(1)))

        let stop = try #require(outcome.timedOutDetails)
        #expect(stop.hop >= 3)  // at the link, or at b0 (hop 4): both sides stop at the deadline
        #expect(await chain.b[0].seen.count == 1)
    }

    @Test(
        "cancelling the sender while the other side's handler is parked ends the send cancelled, and cancels the event there"
    )
    func cancellationCrosses() async throws {
        let gate = Gate()
        let chain = SplitChain(back: [.park(gate), .handle, .pass])
        let backOutcomes = chain.back.observeOutcomes()

        let sending = Task { await chain.f0.send(PlaceOrder(sku: "A-1")) }
        try await gate.waitForArrivals(1)
        sending.cancel()
        let outcome = await sending.value

        // Cancelled where it stopped: at b0 when the other side's answer came back first (as
        // through this in-process transport), at the link when the call was given up first.
        let stop = try #require(outcome.cancelledDetails)
        #expect(["link", "b0"].contains(stop.responder.label))
        #expect(stop.whileHandling)
        var there: Outcome?
        for await finished in backOutcomes {
            there = finished.outcome
            break
        }
        #expect(there?.cancelledDetails?.reason == .ticketCancelled)
    }

    @Test("the other system's posting limit refuses with a typed outcome when its policy is reject")
    func limitRejects() async throws {
        let gate = Gate()
        let chain = SplitChain(
            back: [.park(gate), .handle, .pass],
            postingLimit: EventSystem.PostingLimit(maxOutstanding: 1, whenFull: .reject))
        let first = Task { await chain.f0.send(PlaceOrder(sku: "A")) }
        try await gate.waitForArrivals(1)

        let second = await chain.f0.send(PlaceOrder(sku: "B"))

        let rejection = try #require(second.rejectedDetails)
        #expect(rejection.reason == .limitReached(maxOutstanding: 1))
        #expect(rejection.path.hops == 3)
        #expect(chain.frontLetters.outcomes.map(\.kind) == [.rejected])
        gate.open()
        #expect(await first.value.isHandled)
    }

    @Test("the other system's posting limit slows the sender when its policy is suspend: nothing is dropped")
    func limitSuspends() async throws {
        let gate = Gate()
        let chain = SplitChain(
            back: [.park(gate), .handle, .pass], postingLimit: EventSystem.PostingLimit(maxOutstanding: 1))
        let first = Task { await chain.f0.send(PlaceOrder(sku: "A")) }
        try await gate.waitForArrivals(1)
        let second = Task { await chain.f0.send(PlaceOrder(sku: "B")) }
        // The second waits for room there (its request is suspended in the other system's post
        // office), and so does its sender here.
        try await waitUntil("the other system has a poster waiting for room") {
            chain.back.suspendedPosters >= 1
        }
        #expect(await chain.b[0].seen == ["A customer=-"])

        gate.open()

        #expect(await first.value.isHandled)
        #expect(await second.value.isHandled)
        #expect(await chain.b[0].seen == ["A customer=-", "B customer=-"])
    }

    @Test("a system shutting down there refuses new events: rejected, shuttingDown, dead-lettered here")
    func shutdownRefuses() async throws {
        let chain = SplitChain()
        _ = await chain.back.shutDown(gracePeriod: .zero)

        let outcome = await chain.f0.send(PlaceOrder(sku: "A-1"))

        #expect(outcome.rejectedDetails?.reason == .shuttingDown)
        #expect(chain.frontLetters.outcomes.map(\.kind) == [.rejected])
    }

    @Test("posts from one sender cross in post order, and each ticket resolves with the remote outcome")
    func postsKeepOrder() async throws {
        let chain = SplitChain(back: [.keep, .handle, .pass])
        var tickets: [Ticket] = []
        for number in 0..<200 {
            tickets.append(await chain.f0.post(PlaceOrder(sku: "\(number)")))
        }

        var outcomes: [Outcome] = []
        for ticket in tickets { outcomes.append(await ticket.outcome) }

        #expect(outcomes.allSatisfy { $0.handledDetails?.stoppedAt.label == "b1" })
        #expect(await chain.b[0].seen == (0..<200).map { "\($0) customer=-" })
    }
}

/// A backend root whose capture handler stops every ``PlaceOrder`` before the entry sees it.
private actor Gatekeeper: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let label = "gatekeeper"

    init(system: EventSystem) { self.eventSystem = system }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<Gatekeeper> {
        $0.on(PlaceOrder.self, phase: .capture) { _, _, _ in .handled }
    }
}

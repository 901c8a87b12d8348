import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import Testing

/// The front process is the test; the backend is a `remote-chain-test-server` process (see
/// ``BackendProcess``): its chain is `desk → stock`, the desk parking orders whose sku starts
/// with `slow` (saying `parked <sku>`) and the stock handling the others, numbering them under
/// ``Reservation`` in arrival order.
@Suite("A chain across two processes", .timeLimit(.minutes(2)))
struct TwoProcessTests {
    @Test(
        "sends and posts under way when the other process is killed each end once: handled before, interrupted at the link with a typed cause after, dead-lettered and traced once; a new process serves again"
    )
    func killedMidway() async throws {
        let tracer = RecordingTracer()
        let letters = DeadLetterRecorder()
        let front = EventSystem(tracer: tracer, deadLetters: letters.sink)
        let backend = try await BackendProcess.launch()
        defer { backend.kill() }

        var handled: [Outcome] = []
        var broken: [Outcome] = []
        var afterKill: [Outcome] = []  // sent or delivered once the backend was gone
        try await withLink(to: backend.port, in: front) { link in
            let sender = Station("sender", .pass, next: link, system: front)
            let poster = Station("poster", .pass, next: link, system: front)

            for number in 0..<3 { handled.append(await sender.send(PlaceOrder(sku: "ok-s\(number)"))) }
            // One sender's posts go one after another: p2 parks there, p3 and p4 wait here.
            var tickets: [Ticket] = []
            for sku in ["ok-p0", "ok-p1", "slow-p2", "ok-p3", "ok-p4"] {
                tickets.append(await poster.post(PlaceOrder(sku: sku)))
            }
            let slowSends = (0..<3).map { number in
                Task { await sender.send(PlaceOrder(sku: "slow-s\(number)")) }
            }
            handled.append(await tickets[0].outcome)
            handled.append(await tickets[1].outcome)
            var parked: Set<String> = []
            while parked.count < 4 {
                parked.insert(try await backend.line { $0.hasPrefix("parked ") })
            }
            #expect(parked == ["parked slow-p2", "parked slow-s0", "parked slow-s1", "parked slow-s2"])

            await backend.killAndWait()

            for send in slowSends { broken.append(await send.value) }
            broken.append(await tickets[2].outcome)
            for ticket in tickets[3...] {
                let outcome = await ticket.outcome
                broken.append(outcome)
                afterKill.append(outcome)
            }
            let late = await sender.send(PlaceOrder(sku: "ok-late"))
            broken.append(late)
            afterKill.append(late)

            for outcome in handled {
                #expect(outcome.handledDetails?.stoppedAt.label == "stock", "\(outcome)")
            }
            for outcome in broken {
                let interruption = try #require(outcome.interruptedDetails, "\(outcome)")
                #expect(interruption.lastReached == ResponderID(link))
            }
            // Delivered, parked there when it died: maybe delivered (lost), never "unreachable".
            for outcome in broken[0..<4] {
                guard case .lost = outcome.interruptedDetails?.cause as? RemoteLinkError else {
                    Issue.record("expected lost, got \(outcome)")
                    continue
                }
            }
            // Made after the backend was gone: never sent (unreachable) once this side has seen
            // the connection close; a call that went out on it before then is reported maybe
            // delivered (lost), since this side cannot know the request was not read. Never
            // anything else.
            for outcome in afterKill {
                switch outcome.interruptedDetails?.cause as? RemoteLinkError {
                case .unreachable, .lost: break
                default: Issue.record("expected unreachable or lost, got \(outcome)")
                }
            }
            for ticket in tickets { #expect(ticket.finishedOutcome?.eventID == ticket.eventID) }
        }

        #expect(handled.count == 5)
        #expect(broken.count == 7)
        // The dead-letter sink got exactly the ones not handled; the tracer saw each of them
        // finish once, and nothing else.
        expectEachEndedOnce(
            handled + broken, interrupted: broken, letters: letters, tracer: tracer, system: front)

        // A new backend process (on a new port) serves again, through a new transport.
        let relaunched = try await BackendProcess.launch()
        defer { relaunched.kill() }
        try await withLink(to: relaunched.port, in: front) { link in
            let sender = Station("sender", .pass, next: link, system: front)
            let outcome = await sender.send(PlaceOrder(sku: "ok-again"))
            let again = try #require(outcome.handledDetails, "\(outcome)")
            #expect(again.stoppedAt.label == "stock")
            #expect(again.info[Reservation.self] == 1)  // the first order of the new process
        }
        #expect(letters.count == broken.count)
    }

    @Test(
        "posts from one sender reach the other process in post order: the number each got there comes back with its outcome"
    )
    func postsKeepOrderAcrossProcesses() async throws {
        let front = EventSystem()
        let backend = try await BackendProcess.launch()
        defer { backend.kill() }

        try await withLink(to: backend.port, in: front) { link in
            let poster = Station("poster", .pass, next: link, system: front)
            var tickets: [Ticket] = []
            for number in 0..<50 { tickets.append(await poster.post(PlaceOrder(sku: "ok-\(number)"))) }

            var numbers: [Int?] = []
            for ticket in tickets {
                numbers.append(await ticket.outcome.handledDetails?.info[Reservation.self])
            }

            #expect(numbers == (1...50).map { Optional($0) })
        }
        await backend.killAndWait()
    }

    @Test(
        "a caller killed with SIGKILL while its event is parked here ends the event here: its ticket is cancelled, the handler woken, and the event dead-lettered here"
    )
    func vanishedCallerCancelsTheEvent() async throws {
        let gate = Gate()  // never opened: only the caller's vanishing ends the wait
        let chain = SplitChain(back: [.park(gate), .handle, .pass])
        let backOutcomes = chain.back.observeOutcomes()
        let server = RemoteChainServer(
            entries: RemoteEntries(["orders": chain.b[0]], registry: ordersRegistry()), port: 0)

        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.run() }
            let port = try await server.listeningPort
            let caller = try await BackendProcess.launch(arguments: ["--send-to", "\(port)"])
            defer { caller.kill() }
            try await caller.line { $0 == "sending" }
            try await gate.waitForArrivals(1)

            await caller.killAndWait()

            var there: Outcome?
            for await finished in backOutcomes {
                there = finished.outcome
                break
            }
            #expect(there?.cancelledDetails?.reason == .ticketCancelled, "\(String(describing: there))")
            #expect(there?.cancelledDetails?.responder.label == "b0")
            // Nobody else will ever see it: it is dead-lettered here.
            #expect(chain.backLetters.outcomes.map(\.eventID) == [there?.eventID].compactMap { $0 })
            server.beginGracefulShutdown()
        }
    }

    @Test(
        "a backend frozen with SIGSTOP does not hang its callers: a send with no deadline ends at the link's answer timeout, no answer, and the posts behind it each end typed"
    )
    func frozenPeerDoesNotHang() async throws {
        let front = EventSystem()
        let backend = try await BackendProcess.launch()
        defer { backend.kill() }
        let transport = try GRPCRemoteTransport(
            host: "127.0.0.1", port: backend.port, answerTimeout: .seconds(1))

        try await ResponderChainGRPCTests.withLink(over: transport, in: front) { link in
            let sender = Station("sender", .pass, next: link, system: front)
            #expect(await sender.send(PlaceOrder(sku: "ok-0")).isHandled)

            backend.freeze()
            let clock = ContinuousClock()
            let start = clock.now
            let outcome = await sender.send(PlaceOrder(sku: "ok-1"))
            let broken = try #require(outcome.interruptedDetails, "\(outcome)")
            #expect(broken.lastReached == ResponderID(link))
            guard case .noAnswer = broken.cause as? RemoteLinkError else {
                Issue.record("expected no answer, got \(outcome)")
                return
            }

            var tickets: [Ticket] = []
            for number in 0..<3 { tickets.append(await sender.post(PlaceOrder(sku: "ok-post-\(number)"))) }
            for ticket in tickets {
                let posted = await ticket.outcome
                switch (posted.interruptedDetails?.cause as? RemoteLinkError) {
                case .noAnswer, .unreachable, .lost: break
                default: Issue.record("expected a typed transport outcome, got \(posted)")
                }
            }
            #expect(start.duration(to: clock.now) < .seconds(30))
        }
        await backend.killAndWait()
    }

    @Test(
        "a backend frozen with SIGSTOP while a send and a post wait there is found by keepalive: the connection closes within the ping interval and timeout, and both end lost, long before the answer timeout"
    )
    func frozenPeerFoundByKeepalive() async throws {
        let front = EventSystem()
        let backend = try await BackendProcess.launch()
        defer { backend.kill() }
        // An answer timeout far beyond the test's time limit: only keepalive can end the calls.
        // The ping timeout is left at its default (5 s), which the transport shortens to half the
        // interval (a timeout as long as the interval would never expire).
        let transport = try GRPCRemoteTransport(
            host: "127.0.0.1", port: backend.port, answerTimeout: .seconds(600),
            keepaliveInterval: .milliseconds(1_500))
        #expect(transport.keepaliveTimeout == .milliseconds(750))

        try await ResponderChainGRPCTests.withLink(over: transport, in: front) { link in
            let sender = Station("sender", .pass, next: link, system: front)
            let poster = Station("poster", .pass, next: link, system: front)
            // A call that ends leaves the connection with no call open for a moment (grpc-swift's
            // keepalive used to stop there for good).
            #expect(await sender.send(PlaceOrder(sku: "ok-0")).isHandled)
            let post = await poster.post(PlaceOrder(sku: "slow-post"))
            let send = Task { await sender.send(PlaceOrder(sku: "slow-send")) }
            var parked: Set<String> = []
            while parked.count < 2 { parked.insert(try await backend.line { $0.hasPrefix("parked ") }) }
            // Several ping intervals while they wait: the backend answers the pings and permits
            // them (gRPC's defaults would close the connection at the fourth), so nothing ends.
            try await Task.sleep(for: .seconds(7))
            #expect(post.finishedOutcome == nil)

            backend.freeze()
            let clock = ContinuousClock()
            let start = clock.now
            let outcomes = [await send.value, await post.outcome]
            let took = start.duration(to: clock.now)

            for outcome in outcomes {
                let broken = try #require(outcome.interruptedDetails, "\(outcome)")
                #expect(broken.lastReached == ResponderID(link))
                guard case .lost = broken.cause as? RemoteLinkError else {
                    Issue.record("expected lost, got \(outcome)")
                    continue
                }
            }
            // The documented bound is one interval plus the ping timeout (2.25 s here); the rest
            // is room for a loaded machine.
            #expect(took < .seconds(15), "ended after \(took)")
            // Before the transport shuts down: it would wait for its new connection to the
            // frozen process.
            await backend.killAndWait()
        }
    }

    /// Runs `body` with a link to the backend on `port`, over a gRPC transport that runs for
    /// the duration of `body`.
    private func withLink(
        to port: Int, in system: EventSystem, _ body: (RemoteLink) async throws -> Void
    ) async throws {
        try await ResponderChainGRPCTests.withLink(
            over: GRPCRemoteTransport(host: "127.0.0.1", port: port), in: system, body)
    }
}

import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import ServiceLifecycle
import ServiceLifecycleTestKit
import Testing

@Suite("RemoteChainServer as a lifecycle service", .timeLimit(.minutes(1)))
struct RemoteChainServerTests {
    @Test("with port 0 the server listens on a port the system chose, and listeningPort names it")
    func listeningPortForPortZero() async throws {
        let backend = Backend()
        let server = backend.server
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.run() }
            let port = try await server.listeningPort
            #expect((1...65_535).contains(port))
            try await withLink(to: port) { link, front in
                #expect(await front.send(PlaceOrder(sku: "A")).handledDetails?.stoppedAt.label == "counter")
            }
            server.beginGracefulShutdown()
        }
    }

    @Test(
        "a call under way when the graceful shutdown begins still gets its outcome; a call made after the server stopped ends interrupted at the link, unreachable"
    )
    func gracefulShutdown() async throws {
        let backend = Backend()
        try await backend.serve { trigger, serving, port in
            try await withLink(to: port) { link, front in
                let underWay = Task { await front.send(PlaceOrder(sku: "slow-1")) }
                try await backend.gate.waitForArrivals(1)  // cancellable: the time limit ends it

                trigger.triggerGracefulShutdown()
                // The server takes no new connections (a call through a new one is refused: the
                // first refusal shows it) while the call under way is still parked there.
                // Probes go through connections of their own: in the versions pinned here, a
                // new call on the draining connection itself fails, and takes the call under way
                // with it ("Stream unexpectedly closed", unavailable).
                var probe: Outcome
                repeat {
                    probe = try await withLink(to: port) { _, other in
                        await other.send(PlaceOrder(sku: "probe"))
                    }
                } while probe.isHandled
                guard case .unreachable = probe.interruptedDetails?.cause as? RemoteLinkError else {
                    Issue.record("expected the probe unreachable, got \(probe)")
                    backend.gate.open()
                    return
                }
                #expect(await backend.counter.seen.first == "slow-1 customer=-")

                backend.gate.open()
                let outcome = await underWay.value
                #expect(outcome.handledDetails?.stoppedAt.label == "counter", "\(outcome)")

                try await serving.value  // stopped
                let late = await front.send(PlaceOrder(sku: "late"))
                let broken = try #require(late.interruptedDetails, "\(late)")
                #expect(broken.lastReached == ResponderID(link))
                guard case .unreachable = broken.cause as? RemoteLinkError else {
                    Issue.record("expected unreachable, got \(late)")
                    return
                }
            }
        }
    }

    @Test(
        "the backend's system shut down first while the server still answers: a new event comes back rejected, shuttingDown, one typed outcome"
    )
    func systemStopsBeforeServer() async throws {
        let backend = Backend()
        try await backend.serve { trigger, serving, port in
            let letters = DeadLetterRecorder()
            try await withLink(to: port, deadLetters: letters) { link, front in
                #expect(await front.send(PlaceOrder(sku: "A")).isHandled)

                _ = await backend.system.shutDown(gracePeriod: .seconds(1))
                let outcome = await front.send(PlaceOrder(sku: "B"))

                let rejection = try #require(outcome.rejectedDetails, "\(outcome)")
                #expect(rejection.reason == .shuttingDown)
                #expect(rejection.path.hops == 2)  // front, the link
                #expect(letters.outcomes.map(\.eventID) == [outcome.eventID])
                #expect(await backend.counter.seen == ["A customer=-"])
            }
            trigger.triggerGracefulShutdown()
            try await serving.value
        }
    }

    /// Runs `body` with a front station whose next is a link to the server on `port`.
    private func withLink<Result>(
        to port: Int, deadLetters: DeadLetterRecorder = DeadLetterRecorder(),
        _ body: (RemoteLink, Station) async throws -> Result
    ) async throws -> Result {
        let system = EventSystem(deadLetters: deadLetters.sink)
        let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port)
        // Detached: the transport is no part of the graceful shutdown under test.
        let running = Task.detached { try await transport.run() }
        let result: Result
        do {
            let link = RemoteLink(
                entry: "orders", transport: transport, registry: ordersRegistry(), label: "link",
                system: system)
            result = try await body(link, Station("front", .pass, next: link, system: system))
        } catch {
            transport.shutDown()
            try await running.value
            throw error
        }
        transport.shutDown()
        try await running.value
        return result
    }
}

/// A backend of one root station, `counter`, exposed as `"orders"` by a server on a port the
/// system chooses: it handles every order, those whose sku starts with `slow` once its gate opens.
private struct Backend {
    let system = EventSystem()
    let gate = Gate()
    let counter: Station
    let server: RemoteChainServer

    init() {
        counter = Station("counter", .handleSlowAfter(gate), root: true, system: system)
        server = RemoteChainServer(
            entries: RemoteEntries(["orders": counter], registry: ordersRegistry()), port: 0)
    }

    /// Runs the server from a task of its own under `testGracefulShutdown`, whose trigger it
    /// inherits, and `body` with the trigger, that task and the port the server listens on.
    func serve(
        _ body: (GracefulShutdownTestTrigger, Task<Void, any Error>, Int) async throws -> Void
    ) async throws {
        try await testGracefulShutdown { trigger in
            let serving = Task { try await server.run() }
            try await body(trigger, serving, try await server.listeningPort)
        }
    }
}

import GRPCCore
import GRPCNIOTransportHTTP2
import RemoteOrders
import ResponderChain
@testable import ResponderChainGRPC
import ResponderChainTesting
import Testing

/// The link's and the transport's waits read the clock of their event system: under a manual
/// clock they run in virtual time, and no test waits for them in real time.
@Suite("The remote link's deadlines and waits on its event system's clock", .timeLimit(.minutes(1)))
struct RemoteClockTests {
    @Test(
        "a deadline on a manual clock crosses as its exact time left, and the send ends timed out at the link when the clock passes it"
    )
    func timeLeftOnTheSystemsClock() async throws {
        let clock = ManualClock(now: EventSystem.Instant(offset: .seconds(1_000)))
        let system = EventSystem(clock: clock)
        let transport = HoldingTransport()
        let link = RemoteLink(
            entry: "orders", transport: transport, registry: ordersRegistry(), label: "link", system: system)
        let front = Station("front", .pass, next: link, system: system)
        var requests = transport.requests.makeAsyncIterator()

        let sending = Task {
            await front.send(PlaceOrder(sku: "A-1"), options: SendOptions(deadline: system.now + .seconds(5)))
        }
        let request = try #require(await requests.next())
        #expect(request.timeLeftNanoseconds == 5_000_000_000)  // no time has passed on that clock
        await clock.advance(by: .seconds(5))
        let outcome = await sending.value

        let stop = try #require(outcome.timedOutDetails)
        #expect(stop.responder == ResponderID(link))
        #expect(clock.pendingTimerCount == 0)
    }

    @Test(
        "over HTTP/2, a post with no deadline waits the transport's answerTimeout on its system's clock: thirty seconds of a manual clock end it noAnswer at once"
    )
    func answerTimeoutOnTheSystemsClock() async throws {
        let gate = Gate()  // never opened: only the give-up ends the wait there
        let back = EventSystem()
        let entry = Station("b0", .park(gate), root: true, system: back)
        let backOutcomes = back.observeOutcomes()
        try await GRPCLoopbackTests.withServer(for: entry, system: back) { port, group in
            let clock = ManualClock()
            let front = EventSystem(clock: clock)
            let transport = try GRPCRemoteTransport(
                host: "127.0.0.1", port: port, answerTimeout: .seconds(30), system: front)
            group.addTask { try await transport.run() }
            defer { transport.shutDown() }
            let link = RemoteLink(
                entry: "orders", transport: transport, registry: ordersRegistry(), label: "grpc",
                system: front)
            let sender = Station("front", .pass, next: link, system: front)

            let ticket = await sender.post(PlaceOrder(sku: "A-1"))
            try await gate.waitForArrivals(1)  // there, parked
            try await clock.waitForTimers(1)  // the wait for its answer, on the manual clock
            await clock.advance(by: .seconds(30))

            let outcome = await ticket.outcome
            let broken = try #require(outcome.interruptedDetails)
            #expect(broken.lastReached == ResponderID(link))
            guard case .noAnswer = broken.cause as? RemoteLinkError else {
                Issue.record("expected noAnswer, got \(outcome)")
                return
            }
            // Given up there: its ticket is cancelled.
            var there: Outcome?
            for await finished in backOutcomes {
                there = finished.outcome
                break
            }
            #expect(there?.kind == .cancelled)
        }
    }

    @Test(
        "over several backends, one found unreachable is passed by for its backoff on the transport's system's clock: one second of a manual clock brings it back first"
    )
    func backoffOnTheSystemsClock() async throws {
        let back = EventSystem()
        let entry = Station("b0", .handle, root: true, system: back)
        try await GRPCLoopbackTests.withServer(for: entry, system: back) { port, group in
            let clock = ManualClock()
            let front = EventSystem(clock: clock)
            var options = GRPCMultiBackendTransport.Options()
            options.initialBackoff = .seconds(1)
            let transport = try GRPCMultiBackendTransport(
                addresses: [("127.0.0.1", 1), ("127.0.0.1", port)], options: options, system: front)
            group.addTask { try await transport.run() }
            defer { transport.shutDown() }
            _ = try await transport.registryNames()  // resolved: both backends known, nothing marked
            let names = transport.backends
            let dead = try #require(names.first { $0.hasSuffix(":1") })
            // A sender whose first choice is the backend nothing listens on.
            let label = try #require(
                (0..<64).map { "probe-\($0)" }.first {
                    Rendezvous.ranking(of: names, for: RemoteSenderKey(.relay(label: $0))).first == dead
                })
            let key = RemoteSenderKey(.relay(label: label))
            #expect(transport.backend(for: key) == dead)
            let link = RemoteLink(
                entry: "orders", transport: transport, registry: ordersRegistry(), label: "multi",
                system: front)

            let outcome = await Relay(entry: link, label: label, system: front).send(PlaceOrder(sku: "A-1"))

            #expect(outcome.kind == .handled)  // found unreachable there, answered by the next
            #expect(transport.backend(for: key) != dead)  // passed by for its backoff
            await clock.advance(by: .milliseconds(999))
            #expect(transport.backend(for: key) != dead)
            await clock.advance(by: .milliseconds(1))
            #expect(transport.backend(for: key) == dead)  // tried first again
        }
    }
}

/// A transport that hands each request to the test and never answers: its call ends only when
/// the send gives it up.
private final class HoldingTransport: RemoteTransport {
    let requests: AsyncStream<RemoteRequest>
    private let arrivals: AsyncStream<RemoteRequest>.Continuation
    private let gate = Gate()

    init() {
        (requests, arrivals) = AsyncStream.makeStream()
    }

    func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        arrivals.yield(request)
        try await gate.pass(within: .seconds(120))
        throw CancellationError()
    }

    func registryNames() async throws -> RemoteRegistryNames {
        RemoteRegistryNames(events: [], info: [])
    }
}

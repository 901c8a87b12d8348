import struct Foundation.Data
import GRPCCore
import GRPCNIOTransportHTTP2
import RemoteOrders
import ResponderChain
@testable import ResponderChainGRPC
import ResponderChainTesting
import Testing

@Suite("The remote link over gRPC on 127.0.0.1", .timeLimit(.minutes(1)))
struct GRPCLoopbackTests {
    @Test(
        "an event crosses a real HTTP/2 connection and its outcome comes back; a server that is not there makes the send interrupted, unreachable"
    )
    func overHTTP2() async throws {
        let chain = SplitChain(back: [.reserve(7), .handle, .pass])
        try await Self.withHTTP2Link(to: chain.b[0]) { link in
            try await link.checkRegistry()
            let front = Station("front", .pass, next: link, system: chain.front)

            var options = SendOptions()
            options.info[CustomerID.self] = "c-1"
            let outcome = await front.send(PlaceOrder(sku: "A-1"), options: options)

            let handled = try #require(outcome.handledDetails)
            #expect(handled.stoppedAt.label == "b1")
            #expect(handled.hops == 4)  // front, the link; b0, b1
            #expect(handled.info[Reservation.self] == 7)
            #expect(await chain.b[0].seen == ["A-1 customer=c-1"])
        }

        // Nothing listens there any more.
        let closed = try GRPCRemoteTransport(host: "127.0.0.1", port: 1)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await closed.run() }
            let link = RemoteLink(
                entry: "orders", transport: closed, registry: ordersRegistry(), label: "nowhere")
            let front = Station("front", .pass, next: link, system: chain.front)
            let outcome = await front.send(PlaceOrder(sku: "A-2"), options: SendOptions(timeout: .seconds(5)))
            let broken = try #require(outcome.interruptedDetails)
            #expect(broken.lastReached == ResponderID(link))
            guard case .unreachable = broken.cause as? RemoteLinkError else {
                Issue.record("expected unreachable, got \(outcome)")
                closed.shutDown()
                return
            }
            closed.shutDown()
        }
    }

    @Test(
        "over HTTP/2, a sender that gives up (cancelled, or past its deadline) ends the event there: cancelled by its ticket, or timed out by its own deadline",
        arguments: [GiveUp.cancel, .deadline])
    func givingUpCrosses(_ giveUp: GiveUp) async throws {
        let gate = Gate()  // never opened: only the sender's giving up ends the wait
        let chain = SplitChain(back: [.park(gate), .handle, .pass])
        let backOutcomes = chain.back.observeOutcomes()
        try await Self.withHTTP2Link(to: chain.b[0]) { link in
            let front = Station("front", .pass, next: link, system: chain.front)
            // The connection is opened before the timed send: on a loaded machine opening it took
            // longer than the server's deadline margin, so the event arrived so late that the
            // sender's give-up at its deadline came more than the margin before the event's own
            // deadline there, and was taken as a cancel (the event ended cancelled, not timed out).
            try await link.checkRegistry()

            // The deadline must pass while the event waits at the gate, not before it gets there.
            let options = giveUp == .deadline ? SendOptions(timeout: .seconds(3)) : SendOptions()
            let sending = Task { await front.send(PlaceOrder(sku: "A-1"), options: options) }
            try await gate.waitForArrivals(1)
            if giveUp == .cancel { sending.cancel() }
            let outcome = await sending.value

            var there: Outcome?
            for await finished in backOutcomes {
                there = finished.outcome
                break
            }
            switch giveUp {
            case .cancel:
                #expect(outcome.cancelledDetails != nil, "\(outcome)")
                #expect(there?.cancelledDetails?.reason == .ticketCancelled, "\(String(describing: there))")
            case .deadline:
                #expect(outcome.timedOutDetails != nil, "\(outcome)")
                #expect(there?.timedOutDetails?.responder.label == "b0", "\(String(describing: there))")
            }
        }
    }

    @Test(
        "an event over the size limits is named, never reset: over the link's limit it fails at the link and nothing is sent; over the server's, the server refuses it as too large"
    )
    func sizeLimits() async throws {
        let chain = SplitChain(back: [.handle, .pass, .pass])
        let server = RemoteChainServer(
            entries: RemoteEntries(["orders": chain.b[0]], registry: ordersRegistry()), port: 0,
            maxRequestBytes: 100_000)
        let big = PlaceOrder(sku: String(repeating: "x", count: 110_000))  // about 147,000 bytes encoded

        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.run() }
            let port = try await server.listeningPort
            for transportLimit in [64_000, RemoteChainService.defaultMaxRequestBytes] {
                let transport = try GRPCRemoteTransport(
                    host: "127.0.0.1", port: port, maxRequestBytes: transportLimit)
                group.addTask { try await transport.run() }
                let link = RemoteLink(
                    entry: "orders", transport: transport, registry: ordersRegistry(), label: "grpc")
                let front = Station("front", .pass, next: link, system: chain.front)

                let outcome = await front.send(big)
                if transportLimit < 100_000 {
                    let failure = try #require(outcome.failedDetails, "\(outcome)")
                    #expect(failure.responder == ResponderID(link))
                    guard case .tooLarge(let bytes, let limit) = failure.error as? RemoteLinkError else {
                        Issue.record("expected too large at the link, got \(outcome)")
                        transport.shutDown()
                        continue
                    }
                    #expect(bytes > 110_000)
                    #expect(limit == 64_000)
                } else {
                    let broken = try #require(outcome.interruptedDetails, "\(outcome)")
                    guard case .refused(.tooLarge(let bytes, let limit)) = broken.cause as? RemoteLinkError
                    else {
                        Issue.record("expected refused as too large, got \(outcome)")
                        transport.shutDown()
                        continue
                    }
                    #expect(bytes > 110_000)
                    #expect(limit == 100_000)
                }
                #expect(await !chain.b[0].seen.contains { $0.hasPrefix("xxx") })  // never ran there
                #expect(await front.send(PlaceOrder(sku: "small")).isHandled)
                transport.shutDown()
            }
            server.beginGracefulShutdown()
        }
    }

    @Test(
        "a request over the server's limit is refused by name at any size, never reset: up to the server's transport ceiling the server refuses it, past it the link asks the limit first; once the link knows the limit it refuses before sending",
        arguments: [Oversize.times(1.5), .times(3), .times(20), .pastTheCeiling], [Carriage.awaited, .posted])
    func oversizeRefusedByName(_ size: Oversize, _ carriage: Carriage) async throws {
        let limit = 100_000
        let chain = SplitChain(back: [.handle, .pass, .pass])
        let server = RemoteChainServer(
            entries: RemoteEntries(["orders": chain.b[0]], registry: ordersRegistry()), port: 0,
            maxRequestBytes: limit)
        let big = PlaceOrder(sku: String(repeating: "x", count: size.bytes(over: limit)))

        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.run() }
            defer { server.beginGracefulShutdown() }
            let port = try await server.listeningPort
            // The link's own limit is far above: only the server's applies.
            let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port, maxRequestBytes: 64 << 20)
            group.addTask { try await transport.run() }
            defer { transport.shutDown() }
            let link = RemoteLink(
                entry: "orders", transport: transport, registry: ordersRegistry(), label: "grpc")
            let front = Station("front", .pass, next: link, system: chain.front)

            // The link has not learned the limit yet (no registry check, no answer).
            let first = await carriage.carry(big, from: front)
            if size == .pastTheCeiling {
                Self.expectTooLargeAtTheLink(first, limit: limit, link: link)
            } else {
                let broken = try #require(first.interruptedDetails, "\(first)")
                guard case .refused(.tooLarge(let bytes, let refusedAt)) = broken.cause as? RemoteLinkError
                else {
                    Issue.record("expected refused as too large, got \(first)")
                    return
                }
                #expect(bytes > size.bytes(over: limit))
                #expect(refusedAt == limit)
            }

            // Every answer names the limit: the refusal of an awaited send did. A stream's answers
            // are not read for it; the registry check at start-up reads one.
            if carriage == .posted { try await link.checkRegistry() }
            Self.expectTooLargeAtTheLink(await carriage.carry(big, from: front), limit: limit, link: link)

            // The connection was never reset, and the event never ran there.
            #expect(await carriage.carry(PlaceOrder(sku: "small"), from: front).isHandled)
            #expect(await !chain.b[0].seen.contains { $0.hasPrefix("xxx") })
        }
    }

    private static func expectTooLargeAtTheLink(
        _ outcome: Outcome, limit: Int, link: RemoteLink, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        guard let failure = outcome.failedDetails,
            case .tooLarge(_, let refusedAt) = failure.error as? RemoteLinkError
        else {
            Issue.record("expected too large at the link, got \(outcome)", sourceLocation: sourceLocation)
            return
        }
        #expect(failure.responder == ResponderID(link), sourceLocation: sourceLocation)
        #expect(refusedAt == limit, sourceLocation: sourceLocation)
    }

    @Test("a host given by name is resolved: the link reaches the server at localhost")
    func hostByName() async throws {
        let chain = SplitChain(back: [.handle])
        try await Self.withServer(for: chain.b[0]) { port, group in
            let transport = try GRPCRemoteTransport(host: "localhost", port: port)
            group.addTask { try await transport.run() }
            defer { transport.shutDown() }
            let link = RemoteLink(entry: "orders", transport: transport, registry: ordersRegistry())
            let front = Station("front", .pass, next: link, system: chain.front)
            let outcome = await front.send(
                PlaceOrder(sku: "A-1"), options: SendOptions(timeout: .seconds(10)))
            #expect(outcome.handledDetails?.stoppedAt.label == "b0", "\(outcome)")
        }
    }

    @Test(
        "bytes that are not a request of the wire format are answered with a typed refusal, undecodable, naming what is wrong"
    )
    func malformedRequests() async throws {
        let chain = SplitChain(back: [.handle])
        try await Self.withServer(for: chain.b[0]) { port, group in
            let client = GRPCClient(
                transport: try .http2NIOPosix(
                    target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext))
            group.addTask { try await client.runConnections() }
            defer { client.beginGracefulShutdown() }
            // A version-1 request (JSON), and a request whose event field is cut short.
            let valid = RemoteRequest(
                entry: "orders", event: WireValue(name: "orders.place", json: Data(#"{"sku":"A-1"}"#.utf8)),
                info: [], source: "raw", hopsBefore: 0, timeLeftNanoseconds: nil
            ).serializedBytes()
            for bytes in [Array(#"{"version":1,"entry":"orders"}"#.utf8), Array(valid.dropLast(3))] {
                let reply = try await client.unary(
                    request: ClientRequest(message: bytes),
                    descriptor: MethodDescriptor(
                        fullyQualifiedService: "responderchain.v2.RemoteChain", method: "Deliver"),
                    serializer: RawBytes(), deserializer: RawBytes(), options: .defaults
                ) { try RemoteReply(serializedBytes: try $0.message) }
                guard case .refused(.undecodable(let what)) = reply.body else {
                    Issue.record("expected a refusal, undecodable; got \(reply.body)")
                    continue
                }
                #expect(what.contains("malformed protobuf"))
            }
        }
        #expect(await chain.b[0].seen.isEmpty)
    }

    /// Runs `body` with a link (labelled `grpc`) to the entry `"orders"` = `entry`, served by a
    /// `GRPCServer` on 127.0.0.1 over a real HTTP/2 connection; both end when `body` returns.
    private static func withHTTP2Link(
        to entry: any Responder, _ body: (RemoteLink) async throws -> Void
    ) async throws {
        try await withServer(for: entry) { port, group in
            let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port)
            group.addTask { try await transport.run() }
            defer { transport.shutDown() }
            try await body(
                RemoteLink(entry: "orders", transport: transport, registry: ordersRegistry(), label: "grpc"))
        }
    }

    /// Runs `body` with the port of a `GRPCServer` on 127.0.0.1 that serves the entry `"orders"`
    /// = `entry` (its deadlines on `system`'s clock), and the task group the server runs in; the
    /// server stops when `body` returns.
    static func withServer(
        for entry: any Responder,
        system: EventSystem = .default,
        _ body: (Int, inout ThrowingDiscardingTaskGroup<any Error>) async throws -> Void
    ) async throws {
        let entries = RemoteEntries(["orders": entry], registry: ordersRegistry(), system: system)
        let server = GRPCServer(
            transport: .http2NIOPosix(
                address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
            services: [RemoteChainService(entries: entries)])
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.serve() }
            defer { server.beginGracefulShutdown() }
            let port = try #require(try await server.listeningAddress?.ipv4?.port)
            try await body(port, &group)
        }
    }

    /// How far over a server's limit a request is.
    enum Oversize: Sendable, Equatable, CustomTestStringConvertible {
        case times(Double)
        /// Larger than the server's transport reads (``RemoteChainServer/transportCeiling(for:)``).
        case pastTheCeiling

        /// A sku length that makes a request this large.
        func bytes(over limit: Int) -> Int {
            switch self {
            case .times(let factor): Int(Double(limit) * factor)
            case .pastTheCeiling: RemoteChainServer.transportCeiling(for: limit) + 1
            }
        }

        var testDescription: String {
            switch self {
            case .times(let factor): "\(factor)× the limit"
            case .pastTheCeiling: "past the server's transport ceiling"
            }
        }
    }

    /// How an event is carried: an awaited send (one unary call), or a post (on its sender's
    /// stream).
    enum Carriage: Sendable, CustomTestStringConvertible {
        case awaited
        case posted

        func carry(_ event: PlaceOrder, from station: Station) async -> Outcome {
            switch self {
            case .awaited: await station.send(event)
            case .posted: await station.post(event).outcome
            }
        }

        var testDescription: String { self == .awaited ? "sent" : "posted" }
    }

    enum GiveUp: Sendable, CustomTestStringConvertible {
        case cancel
        case deadline

        var testDescription: String { self == .cancel ? "cancelled" : "past its deadline" }
    }
}

/// Bytes as they are, both ways: a client that writes what it likes.
private struct RawBytes: MessageSerializer, MessageDeserializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
        serializedMessageBytes.withUnsafeBytes { Array($0) }
    }
}

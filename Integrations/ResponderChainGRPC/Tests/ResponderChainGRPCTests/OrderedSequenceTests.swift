import struct Foundation.Data
import GRPCCore
import GRPCNIOTransportHTTP2
import RemoteOrders
import ResponderChain
@testable import ResponderChainGRPC
import ResponderChainTesting
import Testing

@Suite("A stream of posts written by hand: numbers 1, 2, 3, … and give-ups", .timeLimit(.minutes(1)))
struct OrderedSequenceTests {
    @Test(
        "a request numbered other than the next of its stream is refused on its frame, out of sequence, and not posted; the next number is still expected",
        arguments: Numbering.all)
    func numbering(_ numbering: Numbering) async throws {
        let chain = SplitChain(back: [.handle])
        let replies = try await Self.exchange(
            numbering.requests.map { Self.request($0.sequence, sku: $0.sku) }, with: chain)
        #expect(replies.map(Self.summary).sorted() == numbering.replies.sorted())
        #expect(await chain.b[0].seen == numbering.posted.map { "\($0) customer=-" })
    }

    @Test(
        "a give-up names the post of its number and no other: a duplicate number is refused, so the parked post under it is still given up; a give-up for a number never seen is ignored"
    )
    func giveUpAfterADuplicate() async throws {
        let gate = Gate()  // never opened: only the give-up ends the wait
        let chain = SplitChain(back: [.park(gate), .handle])
        let replies = try await Self.exchange(
            [Self.request(1, sku: "parked"), Self.request(1, sku: "duplicate")],
            then: [
                OrderedRequest(sequence: 9, frame: .giveUp).protobufBytes(),
                OrderedRequest(sequence: 1, frame: .giveUp).protobufBytes(),
            ], with: chain
        ) { try await gate.waitForArrivals(1) }
        #expect(
            replies.map(Self.summary).sorted() == [
                "1 cancelled ticketCancelled", "1 refused outOfSequence(expected: 2, got: 1)",
            ])
        #expect(await chain.b[0].seen == ["parked customer=-"])
    }

    @Test(
        "a stream broken by a frame that cannot be answered gives up its posts under way: none stays parked after its sender has gone"
    )
    func brokenStreamGivesUp() async throws {
        let gate = Gate()  // never opened
        let chain = SplitChain(back: [.park(gate), .handle])
        let backOutcomes = chain.back.observeOutcomes()
        // A frame that names no number and cannot be read: the stream ends, invalid argument.
        await #expect(throws: RPCError.self) {
            _ = try await Self.exchange([Self.request(1, sku: "parked")], then: [[0x12, 0xff]], with: chain) {
                try await gate.waitForArrivals(1)
            }
        }
        var there: Outcome?
        for await finished in backOutcomes {
            there = finished.outcome
            break
        }
        #expect(there?.cancelledDetails?.reason == .ticketCancelled, "\(String(describing: there))")
        #expect(chain.backLetters.count == 1)  // its sender is gone: dead-lettered here
    }

    @Test(
        "a stream whose caller goes away abandons its posts under way: cancelled there and dead-lettered there, not the posts it gave up itself"
    )
    func vanishedCallerAbandons() async throws {
        let gate = Gate()  // never opened
        let chain = SplitChain(back: [.park(gate), .handle])
        var backOutcomes = chain.back.observeOutcomes().makeAsyncIterator()
        try await Self.withServer(for: chain) { port in
            let streaming = Task {
                try await Self.exchange(
                    [Self.request(1, sku: "p1"), Self.request(2, sku: "p2")],
                    then: [OrderedRequest(sequence: 2, frame: .giveUp).protobufBytes()], port: port,
                    meanwhile: { try await gate.waitForArrivals(1) },
                    holding: { try await Gate().pass() })  // open until the caller goes away
            }
            var ended: [String: Outcome] = [:]
            while ended["p2"] == nil, let finished = await backOutcomes.next() {
                ended[(finished.event as? PlaceOrder)?.sku ?? "?"] = finished.outcome
            }
            #expect(ended["p2"]?.cancelledDetails?.reason == .ticketCancelled)
            #expect(chain.backLetters.count == 0)  // its sender gave it up, and gets its outcome

            streaming.cancel()  // the caller goes away
            while ended["p1"] == nil, let finished = await backOutcomes.next() {
                ended[(finished.event as? PlaceOrder)?.sku ?? "?"] = finished.outcome
            }
            _ = await streaming.result
            let abandoned = try #require(ended["p1"]?.cancelledDetails, "\(ended)")
            #expect(abandoned.reason == .ticketCancelled)
            #expect(abandoned.whileHandling)
            #expect(chain.backLetters.outcomes.map(\.eventID) == [abandoned.path.eventID])
        }
    }

    /// A request frame numbered `sequence` for an order `sku`.
    static func request(_ sequence: UInt64, sku: String) -> [UInt8] {
        let request = RemoteRequest(
            entry: "orders",
            event: WireValue(name: "orders.place", json: Data(#"{"sku":"\#(sku)","quantity":1}"#.utf8)),
            info: [], source: "by hand", hopsBefore: 0, timeLeftNanoseconds: nil)
        return OrderedRequest(sequence: sequence, frame: .request(request)).protobufBytes()
    }

    /// `3 handled`, `1 refused outOfSequence(expected: 2, got: 1)`, `1 cancelled ticketCancelled`.
    static func summary(_ reply: OrderedReply) -> String {
        switch reply.reply.body {
        case .refused(.outOfSequence(let expected, let got)):
            "\(reply.sequence) refused outOfSequence(expected: \(expected), got: \(got))"
        case .refused(let refusal): "\(reply.sequence) refused \(refusal)"
        case .outcome(let outcome):
            "\(reply.sequence) \(outcome.kind)" + (outcome.stopReason.map { " \($0)" } ?? "")
        }
    }

    /// Writes `frames` on one `DeliverInOrder` stream to a `RemoteChainService` on 127.0.0.1
    /// serving `chain`'s back entry, then runs `meanwhile`, then writes `later`, closes the
    /// stream, and returns the answers once the service has ended it.
    static func exchange(
        _ frames: [[UInt8]], then later: [[UInt8]] = [], with chain: SplitChain,
        meanwhile: @escaping @Sendable () async throws -> Void = {}
    ) async throws -> [OrderedReply] {
        try await withServer(for: chain) { port in
            try await exchange(frames, then: later, port: port, meanwhile: meanwhile)
        }
    }

    /// Writes `frames` on one `DeliverInOrder` stream to the service on `port`, then runs
    /// `meanwhile`, then writes `later`, then runs `holding` and closes the stream; returns the
    /// answers once the service has ended it.
    static func exchange(
        _ frames: [[UInt8]], then later: [[UInt8]], port: Int,
        meanwhile: @escaping @Sendable () async throws -> Void,
        holding: @escaping @Sendable () async throws -> Void = {}
    ) async throws -> [OrderedReply] {
        let client = GRPCClient(
            transport: try .http2NIOPosix(
                target: .ipv4(address: "127.0.0.1", port: port), transportSecurity: .plaintext))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await client.runConnections() }
            defer { client.beginGracefulShutdown() }
            return try await client.bidirectionalStreaming(
                request: StreamingClientRequest(of: [UInt8].self) { writer in
                    for frame in frames { try await writer.write(frame) }
                    try await meanwhile()
                    for frame in later { try await writer.write(frame) }
                    try await holding()
                },
                descriptor: RemoteChainMethods.deliverInOrder, serializer: Frames(),
                deserializer: ProtobufMessageDeserializer<OrderedReply>(), options: .defaults
            ) { response in
                var replies: [OrderedReply] = []
                for try await reply in response.messages { replies.append(reply) }
                return replies
            }
        }
    }

    /// Runs `body` with the port of a `GRPCServer` on 127.0.0.1 whose `RemoteChainService`
    /// serves `chain`'s back entry as `"orders"`; the server stops when `body` returns.
    static func withServer<Result: Sendable>(
        for chain: SplitChain, _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let entries = RemoteEntries(["orders": chain.b[0]], registry: ordersRegistry())
        let server = GRPCServer(
            transport: .http2NIOPosix(
                address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
            services: [RemoteChainService(entries: entries)])
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.serve() }
            defer { server.beginGracefulShutdown() }
            let port = try #require(try await server.listeningAddress?.ipv4?.port)
            return try await body(port)
        }
    }

    /// Requests numbered by hand, the answers they get, and the orders posted.
    struct Numbering: Sendable, CustomTestStringConvertible {
        let name: String
        let requests: [(sequence: UInt64, sku: String)]
        let replies: [String]
        let posted: [String]

        var testDescription: String { name }

        static let all = [
            Numbering(
                name: "starting at 0", requests: [(0, "a"), (1, "b")],
                replies: ["0 refused outOfSequence(expected: 1, got: 0)", "1 handled"], posted: ["b"]),
            Numbering(
                name: "going down", requests: [(1, "a"), (2, "b"), (1, "c")],
                replies: ["1 handled", "2 handled", "1 refused outOfSequence(expected: 3, got: 1)"],
                posted: ["a", "b"]),
            Numbering(
                name: "skipping one", requests: [(1, "a"), (3, "b"), (2, "c")],
                replies: ["1 handled", "3 refused outOfSequence(expected: 2, got: 3)", "2 handled"],
                posted: ["a", "c"]),
            Numbering(
                name: "a duplicate", requests: [(1, "a"), (1, "b"), (2, "c")],
                replies: ["1 handled", "1 refused outOfSequence(expected: 2, got: 1)", "2 handled"],
                posted: ["a", "c"]),
        ]
    }
}

/// Frames written as they are.
private struct Frames: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes { Bytes(message) }
}

import Foundation
import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import Testing

/// The Python client and server of `Interop/` (grpcio, stubs generated from the .proto at start),
/// against this package's server and link over HTTP/2 on 127.0.0.1.
@Suite(
    "A Python client and a Python server written from the .proto alone", .serialized, .timeLimit(.minutes(1)))
struct InteropTests {
    @Test(
        "a Python client reads each name's JSON shape from RegistryNames and sends an order built from it: handled there, with its information both ways"
    )
    func pythonClientHandled() async throws {
        let chain = SplitChain(back: [.reserve(7), .handle])
        let reply = try await Self.withServer(for: chain) { port in
            try await Self.client("handled", port: port)
        }
        #expect(reply["kind"] as? String == "handled", "\(reply)")
        #expect(reply["responder"] as? String == "b1")
        #expect(reply["hops"] as? Int == 2)
        #expect((reply["info"] as? [String: Any])?["reservation"] as? Int == 7, "\(reply)")
        #expect(await chain.b[0].seen == ["py-1 customer=c-1"])
    }

    @Test(
        "a Python client's request the server cannot take is refused, typed, and never posted",
        arguments: [
            ("unknown-entry", "unknown_entry", "nowhere"),
            ("unknown-event", "unknown_event", "orders.cancel"),
            ("undecodable", "undecodable", "keyNotFound"),
            ("unsupported-version", "unsupported_version", "1"),
            ("too-large", "too_large", "100000"),
        ])
    func pythonClientRefused(case name: String, reason: String, naming: String) async throws {
        let chain = SplitChain(back: [.handle])
        let reply = try await Self.withServer(for: chain) { port in
            // 150,000 bytes: over the service's limit, under its transport's (twice the limit).
            try await Self.client(name, port: port, ["--bytes", "150000"])
        }
        #expect(reply["version"] as? Int == 2)
        #expect(reply["refused"] as? String == reason, "\(reply)")
        #expect("\(reply["value"] ?? "")".contains(naming), "\(reply)")
        #expect(await chain.b[0].seen.isEmpty)
    }

    @Test(
        "a plain gRPC deadline, with no time left in the request, is the event's deadline: the Python call ends DEADLINE_EXCEEDED, the event there timed out",
        arguments: ["deadline", "ordered-deadline"])
    func pythonClientDeadline(case name: String) async throws {
        let gate = Gate()  // never opened: only the deadline ends the wait
        let chain = SplitChain(back: [.handleSlowAfter(gate)])
        let outcomes = chain.back.observeOutcomes()
        let reply = try await Self.withServer(for: chain) { port in
            try await Self.client(name, port: port, ["--timeout", "1.5"])
        }
        #expect(reply["status"] as? String == "DEADLINE_EXCEEDED", "\(reply)")
        var there: Outcome?
        for await finished in outcomes {
            there = finished.outcome
            break
        }
        let stop = try #require(there?.timedOutDetails, "\(String(describing: there))")
        #expect(stop.reason == .deadlinePassed)
        #expect(stop.responder.label == "b0")
        // Delivered there as a post: a post that times out is dead-lettered there (Semantics 8.3).
        #expect(chain.backLetters.outcomes.map(\.eventID) == [stop.path.eventID])
    }

    @Test(
        "on DeliverInOrder from Python, numbered frames are posted in order and answered by number, a refused one refused on its frame; a give-up frame cancels its parked event there"
    )
    func pythonClientOrdered() async throws {
        let gate = Gate()  // never opened: only the give-up ends the parked post
        let chain = SplitChain(back: [.handleSlowAfter(gate)])
        // The client gives the seventh up once it is parked here: once its handler has begun,
        // the test creates the file the client waits for.
        let parked = FileManager.default.temporaryDirectory
            .appendingPathComponent("interop-parked-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: parked) }
        let result = try await Self.withServer(for: chain) { port in
            async let said = Self.client("ordered", port: port, ["--parked-file", parked])
            try await gate.waitForArrivals(1)
            #expect(FileManager.default.createFile(atPath: parked, contents: nil))
            return try await said
        }
        // Each outcome is written back as it ends: the numbers say which request an answer is for.
        let replies = try #require(result["replies"] as? [[String: Any]], "\(result)")
            .sorted { ($0["sequence"] as? Int ?? 0) < ($1["sequence"] as? Int ?? 0) }
        #expect(replies.map { $0["sequence"] as? Int } == [1, 2, 3, 4, 5, 6, 7], "\(result)")
        #expect(replies.prefix(5).allSatisfy { $0["kind"] as? String == "handled" }, "\(replies)")
        #expect(replies[5]["refused"] as? String == "unknown_entry", "\(replies)")
        #expect(replies[5]["value"] as? String == "nowhere")
        #expect(replies.last?["kind"] as? String == "cancelled", "\(replies)")
        #expect(replies.last?["stop_reason"] as? String == "ticketCancelled")
        #expect(
            await chain.b[0].seen == ["o-1", "o-2", "o-3", "o-4", "o-5", "slow-7"].map { "\($0) customer=-" })
    }

    @Test(
        "a Swift link reaches a Python server of wire format 2: once checked it writes version 2; a handled outcome and a refusal come back typed, by a call and on a stream, and one sender's posts cross on its ordered stream in post order"
    )
    func pythonServer() async throws {
        let server = try await PythonProcess.launch("server.py")
        defer { server.kill() }
        let letters = DeadLetterRecorder()
        let system = EventSystem(deadLetters: letters.sink)
        let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: server.port)
        try await withLink(over: transport, in: system) { link in
            let names = try await transport.registryNames()
            #expect(names.eventExamples["orders.place"].map { String(decoding: $0, as: UTF8.self) } != nil)
            // The Python server was written from the schema of wire format 2: it says nothing of
            // versions, and the checked link writes version 2 to it.
            #expect(names.wireVersions == 2...2)

            let front = Station("front", .pass, next: link, system: system)
            let handled = await front.send(
                PlaceOrder(sku: "A-1"), options: SendOptions(timeout: .seconds(10)))
            let details = try #require(handled.handledDetails, "\(handled)")
            #expect(details.stoppedAt.label == "python-stock")
            #expect(details.info[HandledBy.self] == "python-unary")

            let nowhere = RemoteLink(
                entry: "nowhere", transport: transport, registry: ordersRegistry(), label: "nowhere",
                system: system)
            let stray = Station("stray", .pass, next: nowhere, system: system)
            // Unchecked, the link writes wire format 3, which the Python server refuses, typed.
            let unread = await stray.send(PlaceOrder(sku: "A-0"), options: SendOptions(timeout: .seconds(10)))
            #expect(
                unread.interruptedDetails?.cause as? RemoteLinkError == .refused(.unsupportedVersion(3)),
                "\(unread)")
            try await nowhere.checkRegistry()
            let refused = await stray.send(
                PlaceOrder(sku: "A-2"), options: SendOptions(timeout: .seconds(10)))
            let broken = try #require(refused.interruptedDetails, "\(refused)")
            #expect(broken.cause as? RemoteLinkError == .refused(.unknownEntry("nowhere")))
            #expect(letters.outcomes.map(\.kind) == [.interrupted, .interrupted])
            let strayPost = await stray.post(PlaceOrder(sku: "A-3")).outcome  // on the stream
            #expect(
                strayPost.interruptedDetails?.cause as? RemoteLinkError == .refused(.unknownEntry("nowhere")),
                "\(strayPost)")

            var tickets: [Ticket] = []
            for number in 1...20 { tickets.append(await front.post(PlaceOrder(sku: "p-\(number)"))) }
            var numbers: [Int] = []
            for ticket in tickets {
                let outcome = await ticket.outcome
                #expect(outcome.handledDetails?.info[HandledBy.self] == "python-stream", "\(outcome)")
                numbers.append(outcome.handledDetails?.info[Reservation.self] ?? 0)
            }
            #expect(numbers == numbers.sorted() && Set(numbers).count == 20, "\(numbers)")
            withExtendedLifetime(nowhere) {}
        }
    }

    /// Runs `body` with the port of a `RemoteChainServer` on 127.0.0.1 serving `chain`'s back
    /// (entry `"orders"`, requests of at most 100,000 bytes); the server stops when it returns.
    private static func withServer<Value>(
        for chain: SplitChain, _ body: (Int) async throws -> Value
    ) async throws -> Value {
        let server = RemoteChainServer(
            entries: RemoteEntries(["orders": chain.b[0]], registry: ordersRegistry()), port: 0,
            maxRequestBytes: 100_000)
        return try await withThrowingTaskGroup { group in
            group.addTask { try await server.run() }
            defer { server.beginGracefulShutdown() }
            return try await body(try await server.listeningPort)
        }
    }

    /// What `Interop/client.py` says, for `name`, to the server on `port`.
    private static func client(_ name: String, port: Int, _ arguments: [String] = []) async throws
        -> [String: Any]
    {
        let output = try await PythonProcess.output(of: "client.py", [name, "--port", "\(port)"] + arguments)
        let json = try JSONSerialization.jsonObject(with: Data(output.utf8))
        return try #require(json as? [String: Any], "client.py said: \(output)")
    }
}

#if RemoteAndStores
    import GRPCCore
    import GRPCNIOTransportHTTP2
    import ResponderChain
    import ResponderChainGRPC

    /// Scenario 10: the remote hop (a front responder → `RemoteLink` → a backend entry, over gRPC)
    /// against bare gRPC calls carrying the same payload, in one process and one run. One process
    /// hosts two gRPC servers on 127.0.0.1 (HTTP/2, plaintext, port 0) and the clients of both. Every
    /// path checks its results; a wrong one stops the run. Figures are per call or per event.
    struct RemoteHopOverGRPC: Scenario {
        let id = "remote"
        let title = "10 remote hop"

        /// How many senders (lanes, or concurrent callers) the concurrent rows use.
        static let concurrency = 4
        /// How many awaited sends the crowded rows keep in flight through one link.
        static let crowd = 1_000

        /// A measured path: its name, the index of the path it is compared with, the target it is
        /// judged by, and its batch.
        private struct Path {
            var name: String
            var baseline: Int?
            var target: Target = .report
            var batch: CheckedBatch
        }

        func run(_ measurer: Measurer) async throws -> [Row] {
            let (entries, entry) = RemoteHop.backend()
            defer { withExtendedLifetime(entry) {} }
            let frontSystem = EventSystem()

            // One send through an in-process transport gives the exact request the link writes and
            // the reply it reads: the payload of the baselines.
            let capture = CapturingTransport(InProcessTransport(entries, peer: "front"))
            let captureFront = FrontResponder(
                "front",
                link: RemoteLink(
                    entry: "orders", transport: capture, registry: benchRegistry(), system: frontSystem),
                system: frontSystem)
            try Order.check(await captureFront.send(Order.event, options: Order.options))
            guard let (request, reply) = capture.first.map({ ($0.request, $0.reply) }) else {
                throw BenchFailure("no request was captured")
            }
            let requestBytes = request.serializedBytes()
            let replyBytes = reply.serializedBytes()

            let echoServer = GRPCServer(
                transport: .http2NIOPosix(
                    address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext),
                services: [EchoService(request: requestBytes, reply: reply, replyBytes: replyBytes)])
            let remoteServer = RemoteChainServer(entries: entries, host: "127.0.0.1", port: 0)

            var samples: [Sample] = []
            var paths: [Path] = []
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await echoServer.serve() }
                group.addTask { try await remoteServer.run() }
                guard let echoPort = try await echoServer.listeningAddress?.ipv4?.port else {
                    throw BenchFailure("the echo server listens on no IPv4 address")
                }
                let remotePort = try await remoteServer.listeningPort

                let client = GRPCClient(
                    transport: try .http2NIOPosix(
                        target: .ipv4(address: "127.0.0.1", port: echoPort), transportSecurity: .plaintext))
                group.addTask { try await client.runConnections() }
                let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: remotePort)
                group.addTask { try await transport.run() }
                // The same, with each post in a unary call of its own: the baseline of the stream.
                let unaryTransport = try GRPCRemoteTransport(
                    host: "127.0.0.1", port: remotePort, streamsPosts: false)
                group.addTask { try await unaryTransport.run() }
                // The same, without its cap on calls in flight: the crowded rows' baseline.
                let uncappedTransport = try GRPCRemoteTransport(
                    host: "127.0.0.1", port: remotePort, maxCallsInFlight: .max)
                group.addTask { try await uncappedTransport.run() }

                let registry = benchRegistry()
                let link = RemoteLink(
                    entry: "orders", transport: transport, registry: registry, system: frontSystem)
                try await link.checkRegistry()
                let hop = RemoteHop(
                    fronts: (0..<Self.concurrency).map { _ in
                        FrontResponder("front", link: link, system: frontSystem)
                    },
                    inProcessFront: RemoteHop.inProcessFront(to: entries, system: frontSystem))
                let unaryHop = RemoteHop(
                    fronts: [
                        FrontResponder(
                            "front",
                            link: RemoteLink(
                                entry: "orders", transport: unaryTransport, registry: registry,
                                system: frontSystem),
                            system: frontSystem)
                    ], inProcessFront: hop.inProcessFront)
                let uncappedFront = FrontResponder(
                    "front",
                    link: RemoteLink(
                        entry: "orders", transport: uncappedTransport, registry: registry, system: frontSystem
                    ),
                    system: frontSystem)
                let crowd = Self.crowd
                let bare = BareGRPC(
                    client: client, request: requestBytes, requestMessage: request, replyBytes: replyBytes)
                let senders = Self.concurrency

                paths = [
                    Path(name: "bare gRPC unary (the payload's bytes, no coding)", baseline: nil) {
                        try await bare.unary(iterations: $0, callers: 1)
                    },
                    Path(
                        name: "bare gRPC unary, RemoteRequest → RemoteReply coded in the wire format",
                        baseline: 0
                    ) {
                        try await bare.unaryCoded(iterations: $0)
                    },
                    Path(name: "bare gRPC bidirectional stream, ping-pong", baseline: 0) {
                        try await bare.pingPong(iterations: $0)
                    },
                    Path(name: "bare gRPC bidirectional stream, pipelined", baseline: 0) {
                        try await bare.pipelined(iterations: $0)
                    },
                    Path(
                        name: "remote hop in process (InProcessTransport, no gRPC), awaited send",
                        baseline: nil
                    ) {
                        try await RemoteHop.send(from: hop.inProcessFront, iterations: $0)
                    },
                    Path(name: "remote hop over gRPC, awaited send", baseline: 0, target: .ratioAtMost(1.2)) {
                        try await RemoteHop.send(from: hop.fronts[0], iterations: $0)
                    },
                    Path(name: "remote hop over gRPC, posted, 1 sender, one unary call per post", baseline: 0)
                    {
                        try await unaryHop.post(iterations: $0, senders: 1)
                    },
                    Path(
                        name: "remote hop over gRPC, posted, 1 sender, in order on one stream", baseline: 6,
                        target: .throughputAtLeast(5)
                    ) {
                        try await hop.post(iterations: $0, senders: 1)
                    },
                    Path(name: "bare gRPC unary, \(senders) concurrent callers", baseline: 0) {
                        try await bare.unary(iterations: $0, callers: senders)
                    },
                    Path(
                        name: "remote hop over gRPC, posted, \(senders) senders, on their streams",
                        baseline: 8
                    ) {
                        try await hop.post(iterations: $0, senders: senders)
                    },
                    Path(
                        name: "remote hop over gRPC, \(crowd) awaited sends in flight, no cap on calls",
                        baseline: nil
                    ) {
                        try await RemoteHop.send(from: uncappedFront, iterations: $0, callers: crowd)
                    },
                    Path(
                        name:
                            "remote hop over gRPC, \(crowd) awaited sends in flight, at most 100 calls (the default)",
                        baseline: 10
                    ) {
                        try await RemoteHop.send(from: hop.fronts[0], iterations: $0, callers: crowd)
                    },
                ]
                samples = try await measurer.measure(
                    paths.map(\.batch), warmUp: measurer.options.quick ? 8 : 300)

                client.beginGracefulShutdown()
                transport.shutDown()
                unaryTransport.shutDown()
                uncappedTransport.shutDown()
                echoServer.beginGracefulShutdown()
                remoteServer.beginGracefulShutdown()
            }

            let payload =
                "10: one process, two gRPC servers on 127.0.0.1; payload: request \(requestBytes.count) B, "
                + "reply \(replyBytes.count) B (protobuf); every call and outcome checked; ns per call or per "
                + "event; the baseline column is the bare unary call (for the stream row, one unary call per "
                + "post; for the \(Self.concurrency)-sender row, the bare call with \(Self.concurrency) callers)"
            // The awaited send's row carries the summary.
            return zip(paths, samples).enumerated().map { index, pair in
                Row(
                    id: id, scenario: "\(title): \(pair.0.name)", depth: nil, hops: 1, library: pair.1,
                    baseline: pair.0.baseline.map { samples[$0] }, target: pair.0.target,
                    note: index == 5 ? Self.summary(samples) : payload)
            }
        }

        /// What the hop adds to the bare calls, from the samples of the paths above, in order.
        private static func summary(_ samples: [Sample]) -> String {
            let bareCall = samples[0].median
            let codedCall = samples[1].median
            let inProcess = samples[4].median
            let awaited = samples[5].median
            func microseconds(_ nanoseconds: Double) -> String { Format.number(nanoseconds / 1_000) }
            func signed(_ nanoseconds: Double) -> String {
                (nanoseconds >= 0 ? "+" : "") + microseconds(nanoseconds)
            }
            let note =
                "10: the remote hop (awaited send) takes \(microseconds(awaited)) µs: "
                + "\(signed(awaited - bareCall)) µs (\(Format.fixed(awaited / bareCall, digits: 2))×) beyond a "
                + "bare unary call with the same bytes, \(signed(awaited - codedCall)) µs beyond one that also "
                + "codes the same messages; the library's side of it without a network (in-process "
                + "transport): \(microseconds(inProcess)) µs. Posted with \(Self.concurrency) senders: "
                + "\(Format.grouped(Int((1e9 / samples[9].median).rounded()))) events/s against "
                + "\(Format.grouped(Int((1e9 / samples[8].median).rounded()))) bare calls/s at the same concurrency. "
                + "One sender's posts in order on one stream: "
                + "\(Format.grouped(Int((1e9 / samples[7].median).rounded()))) events/s, "
                + "\(Format.fixed(samples[6].median / samples[7].median, digits: 1))× one unary call per post"
            return note
        }
    }
#endif

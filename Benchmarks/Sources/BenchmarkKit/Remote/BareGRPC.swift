#if RemoteAndStores
    import GRPCCore
    import GRPCNIOTransportHTTP2
    import ResponderChainGRPC

    /// The baselines' client side: calls to ``EchoService`` with the remote hop's payload, each
    /// answer checked.
    struct BareGRPC: Sendable {
        let client: GRPCClient<HTTP2ClientTransport.Posix>
        /// The remote hop's request, in the wire format and as a message.
        let request: [UInt8]
        let requestMessage: RemoteRequest
        /// The reply the echo answers with, in the wire format.
        let replyBytes: [UInt8]

        /// `iterations` unary calls (bytes as they are), by `callers` concurrent callers, each
        /// making its calls one after another.
        func unary(iterations: Int, callers: Int) async throws -> Timed {
            let stopwatch = Stopwatch()
            try await withThrowingDiscardingTaskGroup { group in
                for caller in 0..<callers {
                    group.addTask {
                        for _ in stride(from: caller, to: iterations, by: callers) {
                            let reply = try await client.unary(
                                request: ClientRequest(message: request), descriptor: EchoService.unary,
                                serializer: BytesSerializer(), deserializer: BytesDeserializer(),
                                options: .defaults
                            ) { response in try response.message }
                            guard reply == replyBytes else { throw BenchFailure("the echo's reply differs") }
                        }
                    }
                }
            }
            return stopwatch.stop(iterations: iterations)
        }

        /// `iterations` unary calls, one at a time, whose messages are a ``RemoteRequest`` and a
        /// ``RemoteReply`` written and read in the wire format.
        func unaryCoded(iterations: Int) async throws -> Timed {
            let stopwatch = Stopwatch()
            for _ in 0..<iterations {
                let reply = try await client.unary(
                    request: ClientRequest(message: requestMessage), descriptor: EchoService.unaryCoded,
                    serializer: WireRequestSerializer(), deserializer: WireReplyDeserializer(),
                    options: .defaults
                ) { response in try response.message }
                guard reply.version == WireFormat.version, case .outcome(let outcome) = reply.body,
                    outcome.kind == "handled"
                else { throw BenchFailure("the coded echo's reply is not a handled outcome") }
            }
            return stopwatch.stop(iterations: iterations)
        }

        /// One bidirectional stream carrying `iterations` requests, each written once the previous
        /// reply has arrived (ping-pong): the latency of a message and its answer on an open stream.
        func pingPong(iterations: Int) async throws -> Timed {
            let stopwatch = Stopwatch()
            let (answers, answered) = AsyncStream<Void>.makeStream()
            let received = try await client.bidirectionalStreaming(
                request: StreamingClientRequest(of: [UInt8].self) { [request] writer in
                    var next = answers.makeAsyncIterator()
                    for _ in 0..<iterations {
                        try await writer.write(request)
                        guard await next.next() != nil else { throw BenchFailure("the stream ended early") }
                    }
                },
                descriptor: EchoService.stream, serializer: BytesSerializer(),
                deserializer: BytesDeserializer(),
                options: .defaults
            ) { [replyBytes] response in
                defer { answered.finish() }
                var count = 0
                for try await message in response.messages {
                    guard message == replyBytes else { throw BenchFailure("the stream's reply differs") }
                    count += 1
                    answered.yield()
                }
                return count
            }
            guard received == iterations else {
                throw BenchFailure("the stream answered \(received) of \(iterations) requests")
            }
            return stopwatch.stop(iterations: iterations)
        }

        /// One bidirectional stream carrying `iterations` requests written without waiting for the
        /// replies (pipelined): time per message when the stream is kept full.
        func pipelined(iterations: Int) async throws -> Timed {
            let stopwatch = Stopwatch()
            let received = try await client.bidirectionalStreaming(
                request: StreamingClientRequest(of: [UInt8].self) { [request] writer in
                    for _ in 0..<iterations { try await writer.write(request) }
                },
                descriptor: EchoService.stream, serializer: BytesSerializer(),
                deserializer: BytesDeserializer(),
                options: .defaults
            ) { [replyBytes] response in
                var count = 0
                for try await message in response.messages {
                    guard message == replyBytes else { throw BenchFailure("the stream's reply differs") }
                    count += 1
                }
                return count
            }
            guard received == iterations else {
                throw BenchFailure("the stream answered \(received) of \(iterations) requests")
            }
            return stopwatch.stop(iterations: iterations)
        }
    }
#endif

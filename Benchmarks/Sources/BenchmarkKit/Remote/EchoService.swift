#if RemoteAndStores
    import GRPCCore
    import ResponderChainGRPC

    /// The bare baseline: a gRPC service of its own that answers the remote hop's request bytes with
    /// its reply bytes, with nothing of the library between the call and the answer.
    ///
    /// - `Unary`: the request's bytes in, the reply's bytes out (no coding: what gRPC alone costs
    ///   to carry this payload).
    /// - `UnaryCoded`: a ``RemoteRequest`` in and a ``RemoteReply`` out, read and written in the wire
    ///   format as the remote chain service does, but answered with a reply made in advance.
    /// - `Stream`: one bidirectional stream; each request message answered with the reply's bytes.
    ///
    /// Every method checks what it received and fails the call on a wrong request.
    struct EchoService: RegistrableRPCService {
        static let service = ServiceDescriptor(fullyQualifiedService: "responderchain.bench.Echo")
        static let unary = MethodDescriptor(service: service, method: "Unary")
        static let unaryCoded = MethodDescriptor(service: service, method: "UnaryCoded")
        static let stream = MethodDescriptor(service: service, method: "Stream")

        /// The request the remote hop sends, in the wire format.
        let request: [UInt8]
        /// The reply the remote hop receives.
        let reply: RemoteReply
        /// That reply, in the wire format.
        let replyBytes: [UInt8]

        func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
            router.registerHandler(
                forMethod: Self.unary, deserializer: BytesDeserializer(), serializer: BytesSerializer()
            ) { [request, replyBytes] stream, _ in
                let single = try await ServerRequest(stream: stream)
                guard single.message == request else {
                    throw RPCError(code: .invalidArgument, message: "not the remote hop's request")
                }
                return StreamingServerResponse(single: ServerResponse(message: replyBytes))
            }
            router.registerHandler(
                forMethod: Self.unaryCoded, deserializer: WireRequestDeserializer(),
                serializer: WireReplySerializer()
            ) { [reply] stream, _ in
                let single = try await ServerRequest(stream: stream)
                guard single.message.entry == "orders", single.message.event.name == "orders.place" else {
                    throw RPCError(code: .invalidArgument, message: "not the remote hop's request")
                }
                return StreamingServerResponse(single: ServerResponse(message: reply))
            }
            router.registerHandler(
                forMethod: Self.stream, deserializer: BytesDeserializer(), serializer: BytesSerializer()
            ) { [request, replyBytes] stream, _ in
                StreamingServerResponse { writer in
                    for try await message in stream.messages {
                        guard message == request else {
                            throw RPCError(code: .invalidArgument, message: "not the remote hop's request")
                        }
                        try await writer.write(replyBytes)
                    }
                    return [:]
                }
            }
        }
    }

    /// Bytes as they are: no coding.
    struct BytesSerializer: MessageSerializer {
        func serialize<Bytes: GRPCContiguousBytes>(_ message: [UInt8]) throws -> Bytes {
            Bytes(message)
        }
    }

    /// Bytes as they are: no coding.
    struct BytesDeserializer: MessageDeserializer {
        func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> [UInt8] {
            serializedMessageBytes.withUnsafeBytes { Array($0) }
        }
    }

    /// A ``RemoteRequest`` read from the wire format, as the remote chain's service reads it.
    struct WireRequestDeserializer: MessageDeserializer {
        func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> RemoteRequest
        {
            try RemoteRequest(serializedBytes: serializedMessageBytes.withUnsafeBytes { Array($0) })
        }
    }

    /// A ``RemoteRequest`` written in the wire format.
    struct WireRequestSerializer: MessageSerializer {
        func serialize<Bytes: GRPCContiguousBytes>(_ message: RemoteRequest) throws -> Bytes {
            Bytes(message.serializedBytes())
        }
    }

    /// A ``RemoteReply`` read from the wire format.
    struct WireReplyDeserializer: MessageDeserializer {
        func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> RemoteReply {
            try RemoteReply(serializedBytes: serializedMessageBytes.withUnsafeBytes { Array($0) })
        }
    }

    /// A ``RemoteReply`` written in the wire format, as the remote chain's service writes it.
    struct WireReplySerializer: MessageSerializer {
        func serialize<Bytes: GRPCContiguousBytes>(_ message: RemoteReply) throws -> Bytes {
            Bytes(message.serializedBytes())
        }
    }
#endif

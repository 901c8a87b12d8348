import GRPCCore
import ResponderChainGRPC

internal import struct Foundation.Data
internal import class Foundation.JSONDecoder
internal import class Foundation.JSONEncoder

/// The bare baseline: a gRPC service of its own that answers the remote hop's request bytes with
/// its reply bytes, with nothing of the library between the call and the answer.
///
/// - `Unary`: the request's bytes in, the reply's bytes out (no coding: what gRPC alone costs
///   to carry this payload).
/// - `UnaryJSON`: a ``RemoteRequest`` in and a ``RemoteReply`` out, read and written as JSON as
///   the remote chain service does, but answered with a reply made in advance.
/// - `Stream`: one bidirectional stream; each request message answered with the reply's bytes.
///
/// Every method checks what it received and fails the call on a wrong request.
struct EchoService: RegistrableRPCService {
    static let service = ServiceDescriptor(fullyQualifiedService: "responderchain.bench.Echo")
    static let unary = MethodDescriptor(service: service, method: "Unary")
    static let unaryJSON = MethodDescriptor(service: service, method: "UnaryJSON")
    static let stream = MethodDescriptor(service: service, method: "Stream")

    /// The request the remote hop sends, as JSON.
    let request: [UInt8]
    /// The reply the remote hop receives.
    let reply: RemoteReply
    /// That reply, as JSON.
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
            forMethod: Self.unaryJSON, deserializer: JSONDeserializer<RemoteRequest>(),
            serializer: JSONSerializer<RemoteReply>()
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

/// A `Codable` message as JSON, written as the remote chain's methods write theirs.
struct JSONSerializer<Message: Encodable>: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        Bytes(Array(try JSONEncoder().encode(message)))
    }
}

/// A `Codable` message read from JSON, as the remote chain's methods read theirs.
struct JSONDeserializer<Message: Decodable>: MessageDeserializer {
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        let data = serializedMessageBytes.withUnsafeBytes { Data($0) }
        return try JSONDecoder().decode(Message.self, from: data)
    }
}

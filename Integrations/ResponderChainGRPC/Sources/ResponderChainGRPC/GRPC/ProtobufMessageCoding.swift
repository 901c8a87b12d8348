import GRPCCore

/// Writes a message of the remote chain's schema in protobuf's binary format: the serializer of
/// the remote chain's gRPC methods.
struct ProtobufMessageSerializer<Message: ProtobufMessage>: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        Bytes(message.protobufBytes())
    }
}

/// Reads a message of the remote chain's schema from protobuf's binary format.
struct ProtobufMessageDeserializer<Message: ProtobufMessage>: MessageDeserializer {
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        try serializedMessageBytes.withUnsafeBytes { buffer throws(WireDecodingError) in
            try Message(serializedBytes: buffer)
        }
    }
}

/// A message already encoded: the transport encodes a request itself to check its size before
/// anything is sent.
struct EncodedMessage: Sendable {
    let bytes: [UInt8]

    init(encoding message: some ProtobufMessage) {
        bytes = message.protobufBytes()
    }
}

/// Writes an ``EncodedMessage`` as it is.
struct EncodedMessageSerializer: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: EncodedMessage) throws -> Bytes {
        Bytes(message.bytes)
    }
}

/// A request as the service reads it: decoded, refused for its size without being read, or
/// unreadable.
enum ReadRequest<Message: Sendable>: Sendable {
    case message(Message)
    case tooLarge(bytes: Int)
    case malformed(String)
}

/// Reads a message of at most `limit` bytes; a larger one is not decoded, and one that cannot be
/// read is reported as such, so that the service answers both with a typed refusal.
struct SizedMessageDeserializer<Message: ProtobufMessage & Sendable>: MessageDeserializer {
    let limit: Int

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> ReadRequest<
        Message
    > {
        guard serializedMessageBytes.count <= limit else {
            return .tooLarge(bytes: serializedMessageBytes.count)
        }
        return serializedMessageBytes.withUnsafeBytes { buffer in
            do {
                return .message(try Message(serializedBytes: buffer))
            } catch {
                return .malformed("the request: \(error)")
            }
        }
    }
}

/// The gRPC methods of the remote chain service (`responderchain.v2.RemoteChain` in
/// `Protos/responderchain/v2/remote_chain.proto`).
enum RemoteChainMethods {
    static let service = ServiceDescriptor(fullyQualifiedService: "responderchain.v2.RemoteChain")
    /// One event: a ``RemoteRequest`` in, a ``RemoteReply`` out.
    static let deliver = MethodDescriptor(service: service, method: "Deliver")
    /// The registry's names: an empty message in, ``RemoteRegistryNames`` out.
    static let registryNames = MethodDescriptor(service: service, method: "RegistryNames")
    /// One sender's posts in order: a stream of numbered requests in, numbered replies out.
    static let deliverInOrder = MethodDescriptor(service: service, method: "DeliverInOrder")
}

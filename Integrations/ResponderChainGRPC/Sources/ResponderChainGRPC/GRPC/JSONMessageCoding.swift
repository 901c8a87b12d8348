import GRPCCore

internal import struct Foundation.Data
internal import class Foundation.JSONDecoder
internal import class Foundation.JSONEncoder

/// Writes a `Codable` message as JSON: the serializer of the remote chain's gRPC methods.
struct JSONMessageSerializer<Message: Encodable>: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: Message) throws -> Bytes {
        let data = try JSONEncoder().encode(message)
        return Bytes(Array(data))
    }
}

/// Reads a `Codable` message from JSON.
/// A message already encoded: the transport encodes a request itself to check its size before
/// anything is sent.
struct EncodedMessage: Sendable {
    let bytes: [UInt8]

    init(encoding message: some Encodable) throws {
        bytes = Array(try JSONEncoder().encode(message))
    }
}

/// Writes an ``EncodedMessage`` as it is.
struct EncodedMessageSerializer: MessageSerializer {
    func serialize<Bytes: GRPCContiguousBytes>(_ message: EncodedMessage) throws -> Bytes {
        Bytes(message.bytes)
    }
}

/// A request as the service reads it: decoded, or refused for its size without being read.
enum SizedRequest<Message: Sendable>: Sendable {
    case message(Message)
    case tooLarge(bytes: Int)
}

/// Reads a JSON message of at most `limit` bytes; a larger one is not decoded.
struct SizedJSONMessageDeserializer<Message: Decodable & Sendable>: MessageDeserializer {
    let limit: Int

    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> SizedRequest<
        Message
    > {
        guard serializedMessageBytes.count <= limit else {
            return .tooLarge(bytes: serializedMessageBytes.count)
        }
        let data = serializedMessageBytes.withUnsafeBytes { Data($0) }
        return .message(try JSONDecoder().decode(Message.self, from: data))
    }
}

struct JSONMessageDeserializer<Message: Decodable>: MessageDeserializer {
    func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> Message {
        let data = serializedMessageBytes.withUnsafeBytes { Data($0) }
        return try JSONDecoder().decode(Message.self, from: data)
    }
}

/// The gRPC methods of the remote chain service.
enum RemoteChainMethods {
    static let service = ServiceDescriptor(fullyQualifiedService: "responderchain.v1.RemoteChain")
    /// One event: a ``RemoteRequest`` in, a ``RemoteReply`` out.
    static let deliver = MethodDescriptor(service: service, method: "Deliver")
    /// The registry's names: an empty message in, ``RemoteRegistryNames`` out.
    static let registryNames = MethodDescriptor(service: service, method: "RegistryNames")
}

/// The empty message of ``RemoteChainMethods/registryNames``.
struct Empty: Codable, Sendable {}

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

// The wire format's bytes of the messages a transport carries, for a transport of one's own
// (``RemoteTransport``): what ``GRPCRemoteTransport`` and ``RemoteChainService`` write and read.

extension RemoteRequest {
    /// The request in the wire format (protobuf, ``WireFormat``).
    public func serializedBytes() -> [UInt8] {
        protobufBytes()
    }

    /// The request `bytes` hold, in the wire format.
    ///
    /// - Throws: ``WireDecodingError`` for bytes that are not a request of the wire format.
    public init(serializedBytes bytes: [UInt8]) throws(WireDecodingError) {
        self = try Self.read(bytes)
    }
}

extension RemoteReply {
    /// The reply in the wire format (protobuf, ``WireFormat``).
    public func serializedBytes() -> [UInt8] {
        protobufBytes()
    }

    /// The reply `bytes` hold, in the wire format.
    ///
    /// - Throws: ``WireDecodingError`` for bytes that are not a reply of the wire format.
    public init(serializedBytes bytes: [UInt8]) throws(WireDecodingError) {
        self = try Self.read(bytes)
    }
}

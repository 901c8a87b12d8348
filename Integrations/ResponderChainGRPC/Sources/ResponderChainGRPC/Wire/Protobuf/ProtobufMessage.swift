/// A message of the remote chain's protobuf schema (`Protos/responderchain/v2/remote_chain.proto`),
/// written and read by hand in one pass each way: no generated code, no dependency.
protocol ProtobufMessage: Sendable {
    /// Reads the message from `reader`, skipping fields it does not know.
    init(from reader: inout ProtobufReader) throws(WireDecodingError)

    /// Writes the message's fields to `writer`.
    func encode(to writer: inout ProtobufWriter)
}

extension ProtobufMessage {
    /// The message in protobuf's binary format.
    func protobufBytes() -> [UInt8] {
        var writer = ProtobufWriter()
        encode(to: &writer)
        return writer.bytes
    }

    /// A message read from `bytes`.
    init(serializedBytes bytes: UnsafeRawBufferPointer) throws(WireDecodingError) {
        var reader = ProtobufReader(bytes)
        self = try Self(from: &reader)
    }

    /// A message read from `bytes`.
    static func read(_ bytes: [UInt8]) throws(WireDecodingError) -> Self {
        let read = bytes.withUnsafeBytes { buffer in
            Result { () throws(WireDecodingError) in try Self(serializedBytes: buffer) }
        }
        return try read.get()
    }
}

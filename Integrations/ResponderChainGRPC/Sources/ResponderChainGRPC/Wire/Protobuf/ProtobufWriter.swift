/// Writes a message in the protobuf binary format, field by field, in one pass.
///
/// Only what the remote chain's schema (`Protos/responderchain/v2/remote_chain.proto`) uses:
/// varints, zigzag varints, length-delimited fields (strings, bytes, messages, maps). A field at
/// its default value (zero, empty) is not written, as protobuf's proto3 writers do; a field with
/// explicit presence (`optional`, a message) is written whenever it is present.
struct ProtobufWriter {
    /// The bytes written so far.
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 256) {
        bytes.reserveCapacity(capacity)
    }

    /// The wire types of protobuf's binary format that the schema uses.
    enum WireType: UInt8 {
        case varint = 0
        case lengthDelimited = 2
    }

    mutating func writeVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func writeTag(_ field: Int, _ type: WireType) {
        writeVarint(UInt64(field) << 3 | UInt64(type.rawValue))
    }

    // MARK: Fields

    /// An `int64`/`uint32`/`uint64` field (negative values as ten-byte varints, as protobuf
    /// writes them).
    mutating func write(_ field: Int, int value: Int) {
        guard value != 0 else { return }
        writeOptional(field, int: value)
    }

    /// An `optional` integer field: written when present, even at zero.
    mutating func writeOptional(_ field: Int, int value: Int?) {
        guard let value else { return }
        writeTag(field, .varint)
        writeVarint(UInt64(bitPattern: Int64(value)))
    }

    /// A `uint64` field.
    mutating func write(_ field: Int, uint value: UInt64) {
        guard value != 0 else { return }
        writeTag(field, .varint)
        writeVarint(value)
    }

    /// An `optional sint64` field (zigzag: small negative values stay short).
    mutating func writeOptional(_ field: Int, sint value: Int64?) {
        guard let value else { return }
        writeTag(field, .varint)
        writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// An `optional bool` field.
    mutating func writeOptional(_ field: Int, bool value: Bool?) {
        guard let value else { return }
        writeTag(field, .varint)
        writeVarint(value ? 1 : 0)
    }

    /// A `string` field.
    mutating func write(_ field: Int, string value: String) {
        guard !value.isEmpty else { return }
        writeOptional(field, string: value)
    }

    /// An `optional string` field, or one element of a `repeated string` field.
    mutating func writeOptional(_ field: Int, string value: String?) {
        guard var value else { return }
        writeTag(field, .lengthDelimited)
        value.withUTF8 { utf8 in
            writeVarint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    /// A `bytes` field.
    mutating func write(_ field: Int, bytes value: some Collection<UInt8>) {
        guard !value.isEmpty else { return }
        writeTag(field, .lengthDelimited)
        writeVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A message field, or one element of a `repeated` message field: written even when empty.
    mutating func write(_ field: Int, message: some ProtobufMessage) {
        writeTag(field, .lengthDelimited)
        writeNested { message.encode(to: &$0) }
    }

    /// An optional message field: written when present.
    mutating func writeOptional(_ field: Int, message: (some ProtobufMessage)?) {
        guard let message else { return }
        write(field, message: message)
    }

    /// A `map<string, string>` field: one entry message per pair (key 1, value 2), sorted by key
    /// so that the same map is always written the same way.
    mutating func write(_ field: Int, map: [String: String]) {
        for key in map.keys.sorted() {
            writeTag(field, .lengthDelimited)
            writeNested { entry in
                entry.write(1, string: key)
                entry.write(2, string: map[key] ?? "")
            }
        }
    }

    /// Writes what `body` writes, preceded by its length. The body is written in place and its
    /// length put before it afterwards: one byte is set aside, which is the length's size for
    /// any body under 128 bytes; a longer one moves its body up by the extra bytes.
    private mutating func writeNested(_ body: (inout ProtobufWriter) -> Void) {
        let lengthAt = bytes.count
        bytes.append(0)
        body(&self)
        let length = bytes.count - lengthAt - 1
        guard length >= 0x80 else {
            bytes[lengthAt] = UInt8(length)
            return
        }
        var prefix = ProtobufWriter(capacity: 10)
        prefix.writeVarint(UInt64(length))
        bytes.replaceSubrange(lengthAt..<lengthAt + 1, with: prefix.bytes)
    }
}

internal import struct Foundation.Data

/// Reads a message in the protobuf binary format, field by field, in one pass.
///
/// A message's decoder loops over ``nextField()`` and reads the fields it knows; fields it does
/// not know are skipped, as protobuf requires (a newer writer's additions), whatever their wire
/// type. Malformed input (a truncated field, a varint over ten bytes, a wire type the format
/// does not have, a string that is not UTF-8) throws ``WireDecodingError``. A singular message
/// field that occurs more than once is merged, as protobuf merges it: its occurrences are kept
/// (``readMessage(into:)``) and read as one once the enclosing message is read
/// (``message(_:as:)``).
///
/// It reads bytes it does not own: use it only inside the `withUnsafeBytes` of the buffer it reads
/// (``ProtobufMessage/init(serializedBytes:)``), never keep it beyond.
struct ProtobufReader {
    private let buffer: UnsafeRawBufferPointer
    private var offset = 0
    /// The wire type of the field ``nextField()`` returned last.
    private var wireType: UInt8 = 0

    init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    /// The next field's number, or `nil` at the end of the message.
    mutating func nextField() throws(WireDecodingError) -> Int? {
        guard offset < buffer.count else { return nil }
        let tag = try readVarint()
        wireType = UInt8(tag & 0x7)
        let field = tag >> 3
        guard field > 0, field <= 536_870_911 else { throw .malformed("field number \(field)") }
        return Int(field)
    }

    // MARK: Values

    mutating func readUInt64() throws(WireDecodingError) -> UInt64 {
        try expect(0)
        return try readVarint()
    }

    /// An `int64`, `uint32` or `uint64` value as an `Int`.
    mutating func readInt() throws(WireDecodingError) -> Int {
        Int(truncatingIfNeeded: Int64(bitPattern: try readUInt64()))
    }

    /// A `sint64` value (zigzag).
    mutating func readSInt64() throws(WireDecodingError) -> Int64 {
        let raw = try readUInt64()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    mutating func readBool() throws(WireDecodingError) -> Bool {
        try readUInt64() != 0
    }

    mutating func readString() throws(WireDecodingError) -> String {
        let range = try readLengthDelimited()
        guard let string = String(validating: UnsafeRawBufferPointer(rebasing: buffer[range]), as: UTF8.self)
        else {
            throw .malformed("a string that is not UTF-8")
        }
        return string
    }

    mutating func readData() throws(WireDecodingError) -> Data {
        let range = try readLengthDelimited()
        return Data(UnsafeRawBufferPointer(rebasing: buffer[range]))
    }

    /// A message field's value.
    mutating func readMessage<Message: ProtobufMessage>(_: Message.Type = Message.self)
        throws(WireDecodingError) -> Message
    {
        let range = try readLengthDelimited()
        var nested = ProtobufReader(UnsafeRawBufferPointer(rebasing: buffer[range]))
        return try Message(from: &nested)
    }

    /// One occurrence of a singular message field, kept in `occurrences` to be read with the
    /// others once the enclosing message is read (``message(_:)``): protobuf merges a message
    /// field that occurs more than once, later fields over earlier ones, repeated ones appended.
    mutating func readMessage(into occurrences: inout MessageOccurrences) throws(WireDecodingError) {
        let range = try readLengthDelimited()
        if let first = occurrences.first {
            if occurrences.joined == nil { occurrences.joined = Array(buffer[first]) }
            occurrences.joined?.append(contentsOf: buffer[range])
        } else {
            occurrences.first = range
        }
    }

    /// The message a singular field's `occurrences` hold, merged as protobuf merges them (the
    /// same as reading their bytes one after the other as one message); `nil` when the field
    /// did not occur.
    func message<Message: ProtobufMessage>(
        _ occurrences: MessageOccurrences, as _: Message.Type = Message.self
    )
        throws(WireDecodingError) -> Message?
    {
        if let joined = occurrences.joined { return try Message.read(joined) }
        guard let first = occurrences.first else { return nil }
        var nested = ProtobufReader(UnsafeRawBufferPointer(rebasing: buffer[first]))
        return try Message(from: &nested)
    }

    /// One entry of a `map<string, string>` field.
    mutating func readStringMapEntry() throws(WireDecodingError) -> (key: String, value: String) {
        let range = try readLengthDelimited()
        var entry = ProtobufReader(UnsafeRawBufferPointer(rebasing: buffer[range]))
        var key = ""
        var value = ""
        while let field = try entry.nextField() {
            switch field {
            case 1: key = try entry.readString()
            case 2: value = try entry.readString()
            default: try entry.skipField()
            }
        }
        return (key, value)
    }

    /// Skips the value of a field this reader does not know.
    mutating func skipField() throws(WireDecodingError) {
        switch wireType {
        case 0: _ = try readVarint()
        case 1: try advance(by: 8)
        case 2: _ = try readLengthDelimited()
        case 5: try advance(by: 4)
        default: throw .malformed("wire type \(wireType)")
        }
    }

    // MARK: Wire

    private mutating func expect(_ type: UInt8) throws(WireDecodingError) {
        guard wireType == type else { throw .malformed("wire type \(wireType) where \(type) belongs") }
    }

    private mutating func readVarint() throws(WireDecodingError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < buffer.count else { throw .malformed("a truncated varint") }
            let byte = buffer[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            guard shift < 70 else { throw .malformed("a varint over ten bytes") }
        }
    }

    /// The byte range of a length-delimited value, skipped over.
    private mutating func readLengthDelimited() throws(WireDecodingError) -> Range<Int> {
        try expect(2)
        let length = try readVarint()
        guard length <= UInt64(buffer.count - offset) else {
            throw .malformed("a field of \(length) bytes where \(buffer.count - offset) are left")
        }
        let start = offset
        offset += Int(length)
        return start..<offset
    }

    private mutating func advance(by count: Int) throws(WireDecodingError) {
        guard count <= buffer.count - offset else { throw .malformed("a truncated field") }
        offset += count
    }
}

/// Where a singular message field occurred in the message a ``ProtobufReader`` reads: the bytes
/// of its first occurrence, and once it occurs again, the bytes of all its occurrences joined
/// (no larger than the message they come from). Protobuf reads a field that occurs twice as one
/// message, the second merged into the first.
struct MessageOccurrences {
    /// The first occurrence's bytes in the reader's buffer.
    fileprivate var first: Range<Int>?
    /// Every occurrence's bytes, in order, once there are two or more.
    fileprivate var joined: [UInt8]?

    init() {}

    /// Forgets the occurrences: another member of the field's `oneof` was set after them.
    mutating func removeAll() {
        self = Self()
    }
}

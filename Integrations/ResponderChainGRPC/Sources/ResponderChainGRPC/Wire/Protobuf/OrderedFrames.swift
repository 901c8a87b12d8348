/// A frame of the `DeliverInOrder` stream (`OrderedRequest` in the schema): a numbered request,
/// or the sender's giving up of one it sent.
struct OrderedRequest: ProtobufMessage {
    enum Frame: Sendable {
        case request(RemoteRequest)
        /// A request already written in the wire format (the transport writes each request
        /// once, to check its size): the same bytes on the wire as `request`.
        case encodedRequest([UInt8])
        case giveUp
    }

    /// The request's number in its stream: 1, 2, 3, … in order.
    var sequence: UInt64
    var frame: Frame

    init(sequence: UInt64, frame: Frame) {
        self.sequence = sequence
        self.frame = frame
    }

    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var sequence: UInt64 = 0
        var request = MessageOccurrences()
        var isGiveUp = false
        while let field = try reader.nextField() {
            switch field {
            case 1: sequence = try reader.readUInt64()
            case 2:
                isGiveUp = false
                try reader.readMessage(into: &request)
            case 3:
                // Setting the oneof's other member drops the request read so far.
                guard try reader.readBool() else { break }
                isGiveUp = true
                request.removeAll()
            default: try reader.skipField()
            }
        }
        let frame: Frame
        if isGiveUp {
            frame = .giveUp
        } else if let read = try reader.message(request, as: RemoteRequest.self) {
            frame = .request(read)
        } else {
            throw .missing("OrderedRequest.frame")
        }
        self.init(sequence: sequence, frame: frame)
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(1, uint: sequence)
        switch frame {
        case .request(let request): writer.write(2, message: request)
        case .encodedRequest(let bytes): writer.write(2, bytes: bytes)
        case .giveUp: writer.writeOptional(3, bool: true)
        }
    }

    /// The number a frame's bytes begin with, read without reading the rest: the one field a
    /// frame too large, or unreadable, can still be answered by.
    static func leadingSequence(of bytes: UnsafeRawBufferPointer) -> UInt64? {
        var reader = ProtobufReader(bytes)
        guard (try? reader.nextField()) == 1 else { return nil }
        return try? reader.readUInt64()
    }
}

/// The answer of the `DeliverInOrder` stream to the request of the same number
/// (`OrderedReply` in the schema).
struct OrderedReply: ProtobufMessage {
    var sequence: UInt64
    var reply: RemoteReply

    init(sequence: UInt64, reply: RemoteReply) {
        self.sequence = sequence
        self.reply = reply
    }

    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var sequence: UInt64 = 0
        var reply = MessageOccurrences()
        while let field = try reader.nextField() {
            switch field {
            case 1: sequence = try reader.readUInt64()
            case 2: try reader.readMessage(into: &reply)
            default: try reader.skipField()
            }
        }
        guard let reply = try reader.message(reply, as: RemoteReply.self) else {
            throw .missing("OrderedReply.reply")
        }
        self.init(sequence: sequence, reply: reply)
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(1, uint: sequence)
        writer.write(2, message: reply)
    }
}

extension RemoteReply: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var version = 0
        var body: Body?
        while let field = try reader.nextField() {
            switch field {
            case 1: version = try reader.readInt()
            case 2: body = .outcome(try reader.readMessage())
            case 3: body = .refused(try reader.readMessage())
            default: try reader.skipField()
            }
        }
        guard let body else { throw .missing("RemoteReply.body") }
        self.init(version: version, body: body)
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(1, int: version)
        switch body {
        case .outcome(let outcome): writer.write(2, message: outcome)
        case .refused(let refusal): writer.write(3, message: refusal)
        }
    }
}

extension RemoteRefusal: ProtobufMessage {
    /// `RemoteRefusal.Names`: the names of ``RemoteRefusal/unknownInfo(_:)``.
    private struct Names: ProtobufMessage {
        var names: [String]

        init(names: [String]) { self.names = names }

        init(from reader: inout ProtobufReader) throws(WireDecodingError) {
            names = []
            while let field = try reader.nextField() {
                if field == 1 { names.append(try reader.readString()) } else { try reader.skipField() }
            }
        }

        func encode(to writer: inout ProtobufWriter) {
            for name in names { writer.writeOptional(1, string: name) }
        }
    }

    /// `RemoteRefusal.TooLarge`: the sizes of ``RemoteRefusal/tooLarge(bytes:limit:)``.
    private struct TooLarge: ProtobufMessage {
        var bytes = 0
        var limit = 0

        init(bytes: Int, limit: Int) {
            self.bytes = bytes
            self.limit = limit
        }

        init(from reader: inout ProtobufReader) throws(WireDecodingError) {
            while let field = try reader.nextField() {
                switch field {
                case 1: bytes = try reader.readInt()
                case 2: limit = try reader.readInt()
                default: try reader.skipField()
                }
            }
        }

        func encode(to writer: inout ProtobufWriter) {
            writer.write(1, int: bytes)
            writer.write(2, int: limit)
        }
    }

    /// `RemoteRefusal.OutOfSequence`: the numbers of ``RemoteRefusal/outOfSequence(expected:got:)``.
    private struct OutOfSequence: ProtobufMessage {
        var expected: UInt64 = 0
        var got: UInt64 = 0

        init(expected: UInt64, got: UInt64) {
            self.expected = expected
            self.got = got
        }

        init(from reader: inout ProtobufReader) throws(WireDecodingError) {
            while let field = try reader.nextField() {
                switch field {
                case 1: expected = try reader.readUInt64()
                case 2: got = try reader.readUInt64()
                default: try reader.skipField()
                }
            }
        }

        func encode(to writer: inout ProtobufWriter) {
            writer.write(1, uint: expected)
            writer.write(2, uint: got)
        }
    }

    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var reason: Self?
        while let field = try reader.nextField() {
            switch field {
            case 1: reason = .unknownEntry(try reader.readString())
            case 2: reason = .unknownEvent(try reader.readString())
            case 3: reason = .unknownInfo(try reader.readMessage(Names.self).names)
            case 4: reason = .unsupportedVersion(try reader.readInt())
            case 5: reason = .undecodable(try reader.readString())
            case 6: reason = .entryGone(try reader.readString())
            case 7:
                let sizes = try reader.readMessage(TooLarge.self)
                reason = .tooLarge(bytes: sizes.bytes, limit: sizes.limit)
            case 8: reason = try reader.readBool() ? .shuttingDown : reason
            case 9:
                let numbers = try reader.readMessage(OutOfSequence.self)
                reason = .outOfSequence(expected: numbers.expected, got: numbers.got)
            default: try reader.skipField()
            }
        }
        guard let reason else { throw .missing("RemoteRefusal.reason") }
        self = reason
    }

    func encode(to writer: inout ProtobufWriter) {
        // Members of a oneof are written even at their default value.
        switch self {
        case .unknownEntry(let name): writer.writeOptional(1, string: name)
        case .unknownEvent(let name): writer.writeOptional(2, string: name)
        case .unknownInfo(let names): writer.write(3, message: Names(names: names))
        case .unsupportedVersion(let version): writer.writeOptional(4, int: version)
        case .undecodable(let what): writer.writeOptional(5, string: what)
        case .entryGone(let name): writer.writeOptional(6, string: name)
        case .tooLarge(let bytes, let limit): writer.write(7, message: TooLarge(bytes: bytes, limit: limit))
        case .shuttingDown: writer.writeOptional(8, bool: true)
        case .outOfSequence(let expected, let got):
            writer.write(9, message: OutOfSequence(expected: expected, got: got))
        }
    }
}

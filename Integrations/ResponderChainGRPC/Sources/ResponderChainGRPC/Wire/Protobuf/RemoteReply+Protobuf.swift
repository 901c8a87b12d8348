extension RemoteReply: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var version = 0
        // The oneof `body`: the member set last, its occurrences merged.
        var member = 0
        var occurrences = MessageOccurrences()
        while let field = try reader.nextField() {
            switch field {
            case 1: version = try reader.readInt()
            case 2, 3:
                if member != field { occurrences.removeAll() }
                member = field
                try reader.readMessage(into: &occurrences)
            default: try reader.skipField()
            }
        }
        let body: Body?
        switch member {
        case 2: body = try reader.message(occurrences, as: WireOutcome.self).map(Body.outcome)
        case 3: body = try reader.message(occurrences, as: RemoteRefusal.self).map(Body.refused)
        default: body = nil
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

    /// The member `newer_schema_version`.
    struct NewerSchemaVersion: ProtobufMessage {
        var event: String
        var version: Int
        var newest: Int

        init(event: String, version: Int, newest: Int) {
            (self.event, self.version, self.newest) = (event, version, newest)
        }

        init(from reader: inout ProtobufReader) throws(WireDecodingError) {
            (event, version, newest) = ("", 0, 0)
            while let field = try reader.nextField() {
                switch field {
                case 1: event = try reader.readString()
                case 2: version = try reader.readInt()
                case 3: newest = try reader.readInt()
                default: try reader.skipField()
                }
            }
        }

        func encode(to writer: inout ProtobufWriter) {
            writer.write(1, string: event)
            writer.write(2, int: version)
            writer.write(3, int: newest)
        }
    }

    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        // The oneof `reason`: the member set last; a message member's occurrences merged.
        var reason: Self?
        var member = 0
        var occurrences = MessageOccurrences()
        while let field = try reader.nextField() {
            switch field {
            case 1: reason = .unknownEntry(try reader.readString())
            case 2: reason = .unknownEvent(try reader.readString())
            case 3, 7, 9, 10:
                if member != field { occurrences.removeAll() }
                try reader.readMessage(into: &occurrences)
                reason = nil
            case 4: reason = .unsupportedVersion(try reader.readInt())
            case 5: reason = .undecodable(try reader.readString())
            case 6: reason = .entryGone(try reader.readString())
            case 8:
                guard try reader.readBool() else { continue }
                reason = .shuttingDown
            default:
                try reader.skipField()
                continue
            }
            member = field
        }
        switch member {
        case 3: reason = try reader.message(occurrences, as: Names.self).map { .unknownInfo($0.names) }
        case 7:
            reason = try reader.message(occurrences, as: TooLarge.self).map {
                .tooLarge(bytes: $0.bytes, limit: $0.limit)
            }
        case 9:
            reason = try reader.message(occurrences, as: OutOfSequence.self).map {
                .outOfSequence(expected: $0.expected, got: $0.got)
            }
        case 10:
            reason = try reader.message(occurrences, as: NewerSchemaVersion.self).map {
                .newerSchemaVersion(event: $0.event, version: $0.version, newest: $0.newest)
            }
        default: break
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
        case .newerSchemaVersion(let event, let version, let newest):
            writer.write(10, message: NewerSchemaVersion(event: event, version: version, newest: newest))
        }
    }
}

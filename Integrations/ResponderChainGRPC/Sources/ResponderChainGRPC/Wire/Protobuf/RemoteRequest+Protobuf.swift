internal import struct Foundation.Data

extension RemoteRequest: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var version = 0
        var entry = ""
        var event = MessageOccurrences()
        var info: [WireValue] = []
        var source = ""
        var hopsBefore = 0
        var timeLeft: Int64?
        var traceHeaders: [String: String] = [:]
        while let field = try reader.nextField() {
            switch field {
            case 1: version = try reader.readInt()
            case 2: entry = try reader.readString()
            case 3: try reader.readMessage(into: &event)
            case 4: info.append(try reader.readMessage())
            case 5: source = try reader.readString()
            case 6: hopsBefore = try reader.readInt()
            case 7: timeLeft = try reader.readSInt64()
            case 8:
                let (key, value) = try reader.readStringMapEntry()
                traceHeaders[key] = value
            default: try reader.skipField()
            }
        }
        guard let event = try reader.message(event, as: WireValue.self) else {
            throw .missing("RemoteRequest.event")
        }
        self.init(
            version: version, entry: entry, event: event, info: info, source: source, hopsBefore: hopsBefore,
            timeLeftNanoseconds: timeLeft, traceHeaders: traceHeaders)
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(1, int: version)
        writer.write(2, string: entry)
        writer.write(3, message: event)
        for value in info { writer.write(4, message: value) }
        writer.write(5, string: source)
        writer.write(6, int: hopsBefore)
        writer.writeOptional(7, sint: timeLeftNanoseconds)
        writer.write(8, map: traceHeaders)
    }
}

extension WireValue: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var name = ""
        var json = Data()
        var schemaVersion = 1
        while let field = try reader.nextField() {
            switch field {
            case 1: name = try reader.readString()
            case 2: json = try reader.readData()
            case 3:
                schemaVersion = try reader.readInt()
                guard (1...Int(UInt32.max)).contains(schemaVersion) else {
                    throw .malformed("WireValue.schemaVersion is \(schemaVersion), outside 1...\(UInt32.max)")
                }
            default: try reader.skipField()
            }
        }
        self.init(name: name, json: json, schemaVersion: schemaVersion)
    }

    func encode(to writer: inout ProtobufWriter) {
        writer.write(1, string: name)
        writer.write(2, bytes: json)
        // Absent means 1: a value of schema version 1 is written as wire format 2 wrote it.
        if schemaVersion != 1 { writer.writeOptional(3, int: schemaVersion) }
    }
}

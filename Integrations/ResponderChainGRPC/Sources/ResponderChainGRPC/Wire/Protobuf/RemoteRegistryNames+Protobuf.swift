internal import struct Foundation.Data

extension RemoteRegistryNames: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var events: [String] = []
        var info: [String] = []
        var eventExamples: [String: Data] = [:]
        var infoExamples: [String: Data] = [:]
        while let field = try reader.nextField() {
            switch field {
            case 1: events.append(try reader.readString())
            case 2: info.append(try reader.readString())
            case 3:
                let example = try reader.readMessage(WireValue.self)
                eventExamples[example.name] = example.json
            case 4:
                let example = try reader.readMessage(WireValue.self)
                infoExamples[example.name] = example.json
            default: try reader.skipField()
            }
        }
        self.init(events: events, info: info, eventExamples: eventExamples, infoExamples: infoExamples)
    }

    func encode(to writer: inout ProtobufWriter) {
        for name in events { writer.writeOptional(1, string: name) }
        for name in info { writer.writeOptional(2, string: name) }
        for name in eventExamples.keys.sorted() {
            writer.write(3, message: WireValue(name: name, json: eventExamples[name] ?? Data()))
        }
        for name in infoExamples.keys.sorted() {
            writer.write(4, message: WireValue(name: name, json: infoExamples[name] ?? Data()))
        }
    }
}

/// The empty message (`Empty`) of the `RegistryNames` method.
struct EmptyMessage: ProtobufMessage {
    init() {}

    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        while try reader.nextField() != nil { try reader.skipField() }
    }

    func encode(to writer: inout ProtobufWriter) {}
}

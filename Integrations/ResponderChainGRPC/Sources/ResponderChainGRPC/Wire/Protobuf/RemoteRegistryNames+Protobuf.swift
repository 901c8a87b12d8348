extension RemoteRegistryNames: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var events: [String] = []
        var info: [String] = []
        while let field = try reader.nextField() {
            switch field {
            case 1: events.append(try reader.readString())
            case 2: info.append(try reader.readString())
            default: try reader.skipField()
            }
        }
        self.init(events: events, info: info)
    }

    func encode(to writer: inout ProtobufWriter) {
        for name in events { writer.writeOptional(1, string: name) }
        for name in info { writer.writeOptional(2, string: name) }
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

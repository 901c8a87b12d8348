internal import struct Foundation.Data

extension RemoteRegistryNames: ProtobufMessage {
    init(from reader: inout ProtobufReader) throws(WireDecodingError) {
        var events: [String] = []
        var info: [String] = []
        var eventExamples: [String: Data] = [:]
        var infoExamples: [String: Data] = [:]
        var eventVersions: [String: ClosedRange<Int>] = [:]
        var wireVersions = 2...2
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
            case 5:
                let versions = try reader.readMessage(VersionRange.self)
                eventVersions[versions.name] = try versions.range("RegisteredNames.event_versions")
            case 6:
                wireVersions = try reader.readMessage(VersionRange.self).range(
                    "RegisteredNames.wire_versions")
            default: try reader.skipField()
            }
        }
        self.init(
            events: events, info: info, eventExamples: eventExamples, infoExamples: infoExamples,
            eventVersions: eventVersions, wireVersions: wireVersions)
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
        for name in eventVersions.keys.sorted() {
            guard let versions = eventVersions[name] else { continue }
            writer.write(5, message: VersionRange(name: name, versions))
        }
        // Absent means version 2 alone: what a side of wire format 2 sends.
        if wireVersions != 2...2 { writer.write(6, message: VersionRange(name: "", wireVersions)) }
    }

    /// The messages `EventVersions` and `WireVersions`: a range of versions, of an event name or
    /// of the wire format (with no name).
    struct VersionRange: ProtobufMessage {
        var name: String
        var oldest: Int
        var newest: Int

        init(name: String, _ range: ClosedRange<Int>) {
            (self.name, oldest, newest) = (name, range.lowerBound, range.upperBound)
        }

        init(from reader: inout ProtobufReader) throws(WireDecodingError) {
            (name, oldest, newest) = ("", 0, 0)
            while let field = try reader.nextField() {
                switch field {
                case 1: name = try reader.readString()
                case 2: oldest = try reader.readInt()
                case 3: newest = try reader.readInt()
                default: try reader.skipField()
                }
            }
        }

        func encode(to writer: inout ProtobufWriter) {
            writer.write(1, string: name)
            writer.write(2, int: oldest)
            writer.write(3, int: newest)
        }

        /// The range, once checked: versions from 1 to `UInt32.max`, the oldest first.
        func range(_ field: String) throws(WireDecodingError) -> ClosedRange<Int> {
            guard oldest >= 1, oldest <= newest, newest <= Int(UInt32.max) else {
                throw .malformed("\(field) \(name.isEmpty ? "" : "of \"\(name)\" ")is \(oldest)...\(newest)")
            }
            return oldest...newest
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

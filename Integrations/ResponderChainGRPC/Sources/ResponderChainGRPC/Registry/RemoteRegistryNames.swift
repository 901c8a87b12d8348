public import struct Foundation.Data

/// The names one side's ``RemoteRegistry`` holds, with the examples registered for them: what
/// the `RegistryNames` method of the wire format serves.
public struct RemoteRegistryNames: Hashable, Sendable, CustomStringConvertible {
    /// The event names, sorted.
    public var events: [String]
    /// The information key names, sorted.
    public var info: [String]
    /// The JSON of the example registered for an event name, by name: the shape a value sent
    /// under that name must have. Names registered without an example have none here.
    public var eventExamples: [String: Data]
    /// The JSON of the example registered for an information name, by name.
    public var infoExamples: [String: Data]
    /// The schema versions read for an event name, by name: from the oldest one its upcasts
    /// read to the one it writes. An event name without an entry (a peer of wire format 2 sends
    /// none) reads schema version 1 only.
    public var eventVersions: [String: ClosedRange<Int>]
    /// The wire format versions the side reads (``WireFormat/readVersions``); `2...2` from a peer
    /// that predates the field.
    public var wireVersions: ClosedRange<Int>

    /// Names, and the examples' JSON of those that have one.
    public init(
        events: [String], info: [String], eventExamples: [String: Data] = [:],
        infoExamples: [String: Data] = [:], eventVersions: [String: ClosedRange<Int>] = [:],
        wireVersions: ClosedRange<Int> = 2...2
    ) {
        self.events = events
        self.info = info
        self.eventExamples = eventExamples
        self.infoExamples = infoExamples
        self.eventVersions = eventVersions
        self.wireVersions = wireVersions
    }

    /// The schema versions the side reads for the event `name`: its entry in ``eventVersions``,
    /// or `1...1`.
    public func versions(ofEvent name: String) -> ClosedRange<Int> {
        eventVersions[name] ?? 1...1
    }

    /// One line per name: `event orders.place {"quantity":1,"sku":"A-1"}`, `info customer-id
    /// "c-1"`; a name without an example ends with `(no example)`, an event read in schema
    /// versions other than 1 alone with them: `(schema versions 1–3)`.
    public var description: String {
        func line(_ kind: String, _ name: String, _ example: Data?) -> String {
            "\(kind) \(name) " + (example.map { String(decoding: $0, as: UTF8.self) } ?? "(no example)")
        }
        func versionNote(_ name: String) -> String {
            let read = versions(ofEvent: name)
            return read == 1...1 ? "" : " (schema versions \(read.lowerBound)–\(read.upperBound))"
        }
        return
            (events.map { line("event", $0, eventExamples[$0]) + versionNote($0) }
            + info.map { line("info", $0, infoExamples[$0]) })
            .joined(separator: "\n")
    }
}

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

    /// Names, and the examples' JSON of those that have one.
    public init(
        events: [String], info: [String], eventExamples: [String: Data] = [:],
        infoExamples: [String: Data] = [:]
    ) {
        self.events = events
        self.info = info
        self.eventExamples = eventExamples
        self.infoExamples = infoExamples
    }

    /// One line per name: `event orders.place {"quantity":1,"sku":"A-1"}`, `info customer-id
    /// "c-1"`; a name without an example ends with `(no example)`.
    public var description: String {
        func line(_ kind: String, _ name: String, _ example: Data?) -> String {
            "\(kind) \(name) " + (example.map { String(decoding: $0, as: UTF8.self) } ?? "(no example)")
        }
        return
            (events.map { line("event", $0, eventExamples[$0]) }
            + info.map { line("info", $0, infoExamples[$0]) })
            .joined(separator: "\n")
    }
}

public import struct Foundation.Data

/// One event handed to another process: what a ``RemoteLink`` sends and ``RemoteEntries``
/// receives. Written as JSON (see ``WireFormat``).
public struct RemoteRequest: Codable, Sendable {
    /// The wire format's version the sender wrote (``WireFormat/version``).
    public var version: Int
    /// The name of the entry responder the event continues at (``RemoteEntries``).
    public var entry: String
    /// The event: its registered name and its value.
    public var event: WireValue
    /// The information the sending side's hops added, under registered names.
    public var info: [WireValue]
    /// Who sent the event in the sending process (its ``EventSource`` description).
    public var source: String
    /// The number of hops that ran in the sending process, the link's included.
    public var hopsBefore: Int
    /// The time left before the send's deadline, in nanoseconds; `nil` for no deadline.
    public var timeLeftNanoseconds: Int64?
    /// Trace context, as header fields (W3C `traceparent`, `tracestate`).
    public var traceHeaders: [String: String]

    /// A request.
    public init(
        version: Int = WireFormat.version, entry: String, event: WireValue, info: [WireValue], source: String,
        hopsBefore: Int, timeLeftNanoseconds: Int64?, traceHeaders: [String: String] = [:]
    ) {
        self.version = version
        self.entry = entry
        self.event = event
        self.info = info
        self.source = source
        self.hopsBefore = hopsBefore
        self.timeLeftNanoseconds = timeLeftNanoseconds
        self.traceHeaders = traceHeaders
    }
}

/// A registered value on the wire: its name in the ``RemoteRegistry`` and its JSON.
public struct WireValue: Codable, Hashable, Sendable {
    /// The registered name.
    public var name: String
    /// The value, as JSON.
    public var json: Data
}

/// The wire format's version, and its JSON coding.
public enum WireFormat {
    /// The version this package writes and reads. A request or reply of another version is
    /// refused (``RemoteRefusal/unsupportedVersion(_:)``).
    public static let version = 1
}

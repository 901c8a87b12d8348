public import struct Foundation.Data

/// One event handed to another process: what a ``RemoteLink`` sends and ``RemoteEntries``
/// receives. Written in the wire format (see ``WireFormat``).
public struct RemoteRequest: Sendable {
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

/// A registered value on the wire: its name in the ``RemoteRegistry`` and the JSON of the
/// `Codable` value.
///
/// A transport of one's own (``RemoteTransport``) that builds requests itself writes each value
/// so: the name the other side registers the type under, and the JSON its `Codable`
/// conformance reads.
///
/// ```swift
/// let event = WireValue(name: "orders.place", json: Data(#"{"sku":"A-1","quantity":2}"#.utf8))
/// let request = RemoteRequest(
///     entry: "orders", event: event, info: [], source: "gateway", hopsBefore: 1,
///     timeLeftNanoseconds: nil)
/// ```
public struct WireValue: Hashable, Sendable {
    /// The registered name.
    public var name: String
    /// The value, as JSON.
    public var json: Data
    /// The schema version of the event type the JSON was written by (see
    /// ``RemoteRegistry/register(_:as:example:version:upcasting:)``): 1, the version of every
    /// value of wire format 2, unless the type was registered with another. Information values
    /// have none (always 1).
    public var schemaVersion: Int

    /// The value registered as `name`, as the JSON `json` of schema version `schemaVersion`.
    public init(name: String, json: Data, schemaVersion: Int = 1) {
        self.name = name
        self.json = json
        self.schemaVersion = schemaVersion
    }
}

/// The wire format: protobuf messages of the schema `responderchain.v2` (the package's
/// `Protos/responderchain/v2/remote_chain.proto`), written and read in one pass each way, over
/// the gRPC service `responderchain.v2.RemoteChain`.
///
/// A ``RemoteRequest`` and a ``RemoteReply`` are that schema's messages of the same names. The
/// values of events and information stay `Codable`: each crosses as the JSON of the value
/// (``WireValue/json``), under its registered name, with its type's schema version
/// (``WireValue/schemaVersion``).
///
/// **Versions.** A request says which version of the format it is written in, and is answered
/// in that version: a server reads ``readVersions`` (this one and the one before), so that in a
/// rolling upgrade old and new processes talk both ways. Version 3 added the schema version of
/// event values, the refusal of a value newer than the receiver reads
/// (``RemoteRefusal/newerSchemaVersion(event:version:newest:)``, answered to a version-2
/// caller as ``RemoteRefusal/undecodable(_:)``), and, in the registry names, the versions each
/// side reads. A link writes the newest version both sides read once
/// ``RemoteLink/checkRegistry()`` has asked the other side; a version-2 peer reads only schema
/// version 1, so an event of another version is refused before it is sent
/// (``RemoteLinkError/schemaVersionNotRead(event:version:reads:)``). (Version 1 was JSON, over
/// the service `responderchain.v1.RemoteChain`, which no server of this package offers now.)
public enum WireFormat {
    /// The version this package writes: 3.
    public static let version = 3

    /// The versions this package reads, and answers in: 2 and 3. A request of another version is
    /// refused (``RemoteRefusal/unsupportedVersion(_:)``).
    public static let readVersions = 2...3
}

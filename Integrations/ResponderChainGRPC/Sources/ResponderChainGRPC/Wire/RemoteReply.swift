/// What the receiving process answers a ``RemoteRequest``: how the event's way ended there, or
/// why it was refused before it began. Written in the wire format (see ``WireFormat``).
public struct RemoteReply: Sendable {
    /// The wire format's version the replier wrote.
    public var version: Int
    /// The answer.
    public var body: Body

    /// The answer to one request.
    public enum Body: Sendable {
        /// The event ran in the receiving process's chain and ended so.
        case outcome(WireOutcome)
        /// The event was not sent up the chain there.
        case refused(RemoteRefusal)
    }

    /// A reply.
    public init(version: Int = WireFormat.version, body: Body) {
        self.version = version
        self.body = body
    }

    /// The answer to a request of wire format `version`, written in that version when this side
    /// reads it (``WireFormat/readVersions``), and otherwise (a version it does not read, or a
    /// request it could not read at all: `nil`) in the oldest it reads, which every caller of a
    /// read version reads too. A version-2 caller, which does not know the refusal
    /// ``RemoteRefusal/newerSchemaVersion(event:version:newest:)``, is answered
    /// ``RemoteRefusal/undecodable(_:)`` with its words.
    public init(answering version: Int?, _ body: Body) {
        let written = version.flatMap { WireFormat.readVersions.contains($0) ? $0 : nil }
        self.init(version: written ?? WireFormat.readVersions.lowerBound, body: body)
        if self.version < 3, case .refused(let refusal) = body, case .newerSchemaVersion = refusal {
            self.body = .refused(.undecodable(refusal.description))
        }
    }
}

/// Why a receiving process refused a request before sending the event up its chain. The
/// sending side reports it as ``RemoteLinkError/refused(_:)``.
public enum RemoteRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// No entry responder is exposed under this name.
    case unknownEntry(String)
    /// No event type is registered under this name there.
    case unknownEvent(String)
    /// No information key is registered under these names there.
    case unknownInfo([String])
    /// The request was written in a wire format version the receiver does not read.
    case unsupportedVersion(Int)
    /// The event or its information could not be read as the registered type.
    case undecodable(String)
    /// The entry responder exposed under this name is gone.
    case entryGone(String)
    /// The request is larger than this side accepts (`RemoteChainServer`'s
    /// `maxRequestBytes`); nothing of it was read.
    case tooLarge(bytes: Int, limit: Int)
    /// The server has begun its graceful shutdown: an event that arrives on a stream of posts
    /// from then on is not posted. (A new call is refused by gRPC itself.)
    case shuttingDown
    /// A request on a stream of posts (`DeliverInOrder`) came under a number other than the
    /// next one of its stream (1, 2, 3, … in order): not posted. The next number is still
    /// `expected`.
    case outOfSequence(expected: UInt64, got: UInt64)
    /// The event's value was written with a schema version newer than the one the event type is
    /// registered with here (`newest`): it was not read, and no handler ran. (Wire format 3; a
    /// version-2 caller is answered ``undecodable(_:)`` with these words.)
    case newerSchemaVersion(event: String, version: Int, newest: Int)

    /// Why, in a few words.
    public var description: String {
        switch self {
        case .unknownEntry(let name): "no entry named \"\(name)\""
        case .unknownEvent(let name): "no event registered as \"\(name)\""
        case .unknownInfo(let names):
            "no information registered as \(names.map { "\"\($0)\"" }.joined(separator: ", "))"
        case .unsupportedVersion(let version): "wire format version \(version) is not read here"
        case .undecodable(let what): "could not read \(what)"
        case .entryGone(let name): "the entry \"\(name)\" is gone"
        case .tooLarge(let bytes, let limit):
            "the request is \(bytes) bytes, over this side's limit of \(limit)"
        case .shuttingDown: "the server is shutting down; the event was not posted"
        case .outOfSequence(let expected, let got):
            "the request is numbered \(got) on its stream, where \(expected) comes next; the event was not posted"
        case .newerSchemaVersion(let event, let version, let newest):
            "event \"\(event)\" has schema version \(version); this side reads up to \(newest)"
        }
    }
}

/// An outcome on the wire: the receiving chain's, with its responders named by identity and
/// label, and its information under registered names.
public struct WireOutcome: Sendable {
    /// The outcome's kind (``Outcome/Kind``'s raw value).
    public var kind: String
    /// The hops that ran in the receiving chain.
    public var hops: Int
    /// How many of them were capture hops.
    public var captureHops: Int
    /// The responders that handled the event there, in order.
    public var handlers: [WireResponder]
    /// How many of the first `handlers` handled it in the capture pass.
    public var captureHandlerCount: Int
    /// The information at the end, under registered names.
    public var info: [WireValue]
    /// The ``InfoKey/name``s of information the receiving side had but could not send back
    /// (not registered there).
    public var infoLeftBehind: [String]
    /// The responder the kind names: where it stopped, the root, the last reached, the one
    /// repeated, where it was stopped or failed, the entry that refused it.
    public var responder: WireResponder
    /// For a cycle: the responder whose `next` led back.
    public var closedBy: WireResponder?
    /// For a cycle: whether it closed through forwarding (absent: it did not).
    public var isForwardingLoop: Bool?
    /// For a stop before a hop: the responder of the last hop that ran there, if one did.
    public var lastReached: WireResponder?
    /// The pass the ending came in (`capture` or `bubble`).
    public var phase: String
    /// For a stop or a failure: its hop there.
    public var hop: Int?
    /// For a stop: whether it came while the hop ran.
    public var whileHandling: Bool?
    /// For a stop: its reason (``Outcome/Stop/Reason``'s description).
    public var stopReason: String?
    /// For a failure: what was thrown.
    public var error: RemoteHandlerError?
    /// For a rejection: why.
    public var rejection: String?
    /// For a rejection because a limit was reached: the limit.
    public var limit: Int?
    /// How many times the event was tried on the sending side (``Outcome/Path/attempts``);
    /// `nil` (absent on the wire, as from a peer that predates it) means once.
    public var attempts: Int?
}

/// A responder of another process, as an outcome on the wire names it.
public struct WireResponder: Hashable, Sendable {
    /// Its identity in its process (unique among the responders alive there).
    public var id: UInt64
    /// Its label.
    public var label: String
}

/// What a handler threw in another process: its type's name and its description (errors do not
/// cross as values).
public struct RemoteHandlerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The thrown error's type name.
    public var type: String
    /// Its description.
    public var message: String

    /// An error from another process.
    public init(type: String, message: String) {
        self.type = type
        self.message = message
    }

    /// `OutOfStock: sku A-1 (in another process)`.
    public var description: String { "\(type): \(message) (in another process)" }
}

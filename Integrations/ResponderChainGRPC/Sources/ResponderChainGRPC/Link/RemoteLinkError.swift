/// Why a ``RemoteLink`` could not carry an event to the other process, or could not tell how its
/// way ended there.
///
/// The first three keep the event from being sent at all: the send ends `.failed` at the link,
/// and nothing reached the other process. The others mean the chain broke at the link: the send
/// ends `.interrupted` with the link as `lastReached` and this error as `Interruption.cause`,
/// and goes to the sending system's dead letters.
///
/// ```swift
/// if case .interrupted(let broken) = outcome, let cause = broken.cause as? RemoteLinkError {
///     print("the backend is out of reach: \(cause)")
/// }
/// ```
public enum RemoteLinkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The event's type is not registered in the link's ``RemoteRegistry``.
    case unregisteredEvent(String)
    /// The event carries information under keys that are neither registered nor kept local
    /// (their ``InfoKey/name``s).
    case unregisteredInfo([String])
    /// The event or a value of its information could not be written.
    case unencodable(String)
    /// The other process could not be reached: the call found no connection to go out on (it
    /// could not be made, or closed before its HTTP/2 preface), and nothing of it was sent; or the
    /// process there does not serve the remote chain's method (gRPC's `UNIMPLEMENTED`), and
    /// nothing of it ran there.
    case unreachable(String)
    /// The other process answered without sending the event up its chain.
    case refused(RemoteRefusal)
    /// The call failed after the request may have been delivered: the event may or may not
    /// have run there. It is not sent again (delivery is at most once).
    case lost(String)
    /// The other side did not answer in time (``GRPCRemoteTransport/answerTimeout``, or the
    /// call's deadline): it may be frozen, dead or too slow. The event may have run there.
    case noAnswer(String)
    /// The request is larger than the transport sends (``GRPCRemoteTransport/maxRequestBytes``),
    /// or than the other side reads, as its answers named it (`limit` says which): nothing was
    /// sent. The send ends failed at the link.
    case tooLarge(bytes: Int, limit: Int)
    /// The other process's answer could not be read.
    case unreadableReply(String)
    /// ``RemoteLink/checkRegistry()``: names registered on this side that the other side does
    /// not have.
    case registryMismatch(missingEvents: [String], missingInfo: [String])
    /// The event's type writes schema version `version` under the name `event`, which the other
    /// side does not read (it reads `reads`): nothing was sent, and the send ends failed at the
    /// link. Thrown by ``RemoteLink/checkRegistry()`` too, for the first such event.
    case schemaVersionNotRead(event: String, version: Int, reads: ClosedRange<Int>)
    /// ``RemoteLink/checkRegistry()``: the other side reads no version of the wire format this
    /// side writes (it reads `theirs`).
    case wireVersionsDisjoint(theirs: ClosedRange<Int>)

    /// What went wrong, in a few words.
    public var description: String {
        switch self {
        case .unregisteredEvent(let type): "\(type) is not registered to cross processes"
        case .unregisteredInfo(let keys):
            "information under \(keys.joined(separator: ", ")) is not registered to cross processes"
        case .unencodable(let what): "could not write \(what)"
        case .unreachable(let why): "unreachable: \(why)"
        case .refused(let refusal): "refused: \(refusal)"
        case .lost(let why): "lost midway (it may have run there): \(why)"
        case .noAnswer(let why): "no answer in time (it may have run there): \(why)"
        case .tooLarge(let bytes, let limit):
            "the request is \(bytes) bytes, over the limit of \(limit): nothing was sent"
        case .unreadableReply(let why): "unreadable reply: \(why)"
        case .registryMismatch(let events, let info):
            "the other side does not register events \(events) or information \(info)"
        case .schemaVersionNotRead(let event, let version, let reads):
            "event \"\(event)\" is written in schema version \(version); the other side reads "
                + "\(reads.lowerBound)–\(reads.upperBound): nothing was sent"
        case .wireVersionsDisjoint(let theirs):
            "the other side reads wire format versions \(theirs.lowerBound)–\(theirs.upperBound); "
                + "this side writes \(WireFormat.readVersions.lowerBound)–\(WireFormat.readVersions.upperBound)"
        }
    }
}

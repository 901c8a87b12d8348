import GRPCCore
import Synchronization

/// The largest request the other side reads, as a ``GRPCRemoteTransport`` learns it from the
/// other side's answers: a ``RemoteChainService`` names it in the initial metadata of each
/// answer (``RemoteChainService/requestLimitKey``).
///
/// Each answer read tells it again (the other process may have been restarted with another
/// limit). A value that is not a positive decimal number is taken as no value: the metadata is
/// the other side's, and untrusted.
final class PeerRequestLimit: Sendable {
    /// What the transport knows.
    enum Knowledge: Equatable, Sendable {
        /// No answer read yet.
        case unknown
        /// The other side's answers name no limit (a service of another kind).
        case unnamed
        /// The limit the other side's last answer named.
        case named(Int)
    }

    private let knowledge = Mutex(Knowledge.unknown)

    /// What the transport knows now.
    var current: Knowledge { knowledge.withLock { $0 } }

    /// Records what the initial metadata of an answer, `metadata`, says.
    func learn(from metadata: Metadata) {
        let named = Self.limit(in: metadata)
        knowledge.withLock { $0 = named.map(Knowledge.named) ?? .unnamed }
    }

    /// The limit `metadata` names, if it names one that can be a limit.
    static func limit(in metadata: Metadata) -> Int? {
        var values = metadata[stringValues: RemoteChainService.requestLimitKey].makeIterator()
        guard let value = values.next(), values.next() == nil,
            value.utf8.count <= 19,
            value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            let limit = Int(value), limit > 0
        else { return nil }
        return limit
    }
}

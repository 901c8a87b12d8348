import ResponderChain

internal import Synchronization

/// The identities the responders of another process have in this one: one stand-in object per
/// remote responder (identity and label), so that a ``ResponderID`` naming one stays the same
/// from one outcome to the next and differs from every other.
final class RemoteResponderDirectory: Sendable {
    /// What a remote responder's identity is taken from in this process.
    private final class StandIn: Sendable {}

    private let standIns = Mutex<[WireResponder: StandIn]>([:])

    /// The identity of `responder` in this process.
    func id(of responder: WireResponder) -> ResponderID {
        let standIn = standIns.withLock { table in
            if let known = table[responder] { return known }
            let new = StandIn()
            table[responder] = new
            return new
        }
        return ResponderID(objectID: ObjectIdentifier(standIn), label: responder.label)
    }

    /// How many remote responders have been seen.
    var count: Int { standIns.withLock { $0.count } }
}

/// Where an event came from: the responder that sent it, or an off-chain producer that relayed it.
///
/// Handlers read it from ``EventContext/source``, for example to find which cell a button belongs
/// to, the way UIKit handlers use `sender`.
public enum EventSource: Sendable, CustomStringConvertible {
    /// Sent by a responder (with ``Responder/send(_:options:)``).
    case responder(any Responder)
    /// Injected by something that is not a responder, through a ``Relay``; the label names it.
    case relay(label: String)

    /// The sending responder, if a responder sent the event.
    public var responder: (any Responder)? {
        if case .responder(let responder) = self { return responder }
        return nil
    }

    /// Whether a relay injected the event.
    var isRelay: Bool {
        if case .relay = self { return true }
        return false
    }

    /// The identity of the sending responder, if a responder sent the event.
    public var responderID: ResponderID? {
        responder.map { ResponderID($0) }
    }

    /// `LineItem` for a responder, `relay(NetworkMonitor)` for a relay.
    public var description: String {
        switch self {
        case .responder(let responder): return ResponderID(responder).description
        case .relay(let label): return "relay(\(label))"
        }
    }
}

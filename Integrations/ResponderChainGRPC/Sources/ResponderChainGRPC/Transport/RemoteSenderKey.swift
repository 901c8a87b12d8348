public import ResponderChain

/// Who sent an event, as a transport over several backends sees it: a number that stays the
/// same for one sender for as long as it lives in this process, so that its events can all go
/// to one backend (``GRPCMultiBackendTransport``). It does not cross the wire.
///
/// A responder is keyed by its object identity (its ``ResponderID/objectID``), a relay by its
/// label. Two relays with the same label share a key; a responder's key may be reused by
/// another responder once it is gone.
public struct RemoteSenderKey: Hashable, Sendable, CustomStringConvertible {
    /// The key's value.
    public let value: UInt64

    /// A key of its own value (for tests, or a transport's caller with a key of its own).
    public init(value: UInt64) {
        self.value = value
    }

    /// The key of the sender `source` names.
    public init(_ source: EventSource) {
        switch source {
        case .responder(let responder):
            value = UInt64(UInt(bitPattern: ObjectIdentifier(responder)))
        case .relay(let label):
            value = Rendezvous.hash("relay:" + label)
        }
    }

    /// The value in hexadecimal.
    public var description: String { "sender-" + String(value, radix: 16) }
}

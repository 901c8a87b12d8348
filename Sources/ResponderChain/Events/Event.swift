/// A value that travels up a responder chain.
///
/// An event is any `Sendable` value. Handlers are found by the event's type, so a typed event
/// needs no name, and a handler receives it already typed:
///
/// ```swift
/// struct ItemAdded: Event { let sku: String }
///
/// await lineItem.send(ItemAdded(sku: "A-1"))
/// ```
///
/// When the name of an event is the point (events built from configuration, plug-ins, or a
/// bridge from a string-keyed system), use ``NamedEvent`` instead.
public protocol Event: Sendable {
    /// The name traces and printed outcomes show for this event. Defaults to the type's name.
    var traceName: String { get }
}

extension Event {
    /// The type's name (without its module), for example `ItemAdded`.
    public var traceName: String {
        // What `String(describing:)` prints, without its search for conformances. Traced sends
        // compute it once per send, not per hop.
        _typeName(Self.self, qualified: false)
    }
}

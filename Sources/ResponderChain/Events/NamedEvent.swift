/// A dynamic event: a name plus a payload, for cases where the name is the point.
///
/// Handlers for a named event are registered by name and by the payload type they expect.
/// A payload of another type does not crash: the send ends with ``Outcome/failed(_:)`` carrying a
/// ``ResponderChainError`` (``ResponderChainError/Code/payloadTypeMismatch``).
///
/// ```swift
/// strategies.on(.addToCart, payload: Product.self) { cart, product, context in
///     cart.items.append(product)
///     return .handled
/// }
///
/// await cell.send(NamedEvent(.addToCart, payload: product))
/// ```
///
/// Prefer a typed ``Event`` whenever the set of events is known at compile time.
public struct NamedEvent: Event {
    /// The event's name; handlers are found by it.
    public let name: NamedEvent.Name
    /// The payload, checked against the type each handler expects.
    public let payload: any Sendable

    /// Creates a named event.
    /// - Parameters:
    ///   - name: The name handlers are registered under.
    ///   - payload: The value handed to the handler. Defaults to `()`.
    public init(_ name: NamedEvent.Name, payload: any Sendable = ()) {
        self.name = name
        self.payload = payload
    }

    /// The event's name.
    public var traceName: String { name.rawValue }
}

/// A typed key for information a hop adds to an event on its way up.
///
/// Declare a key as a type whose `Value` is the type of the information:
///
/// ```swift
/// enum OrderID: InfoKey { typealias Value = Int }
///
/// context.info[OrderID.self] = 42           // in a handler low in the chain
/// let id = context.info[OrderID.self]       // Int?, in any handler above it
/// ```
public protocol InfoKey: SendableMetatype {
    /// The type of the information stored under this key.
    associatedtype Value: Sendable

    /// The name traces print for this key. Defaults to the key type's name.
    static var name: String { get }
}

extension InfoKey {
    /// The key type's name.
    public static var name: String { _typeName(Self.self, qualified: false) }
}

/// The identity of a responder, as outcomes and traces report it.
///
/// A value: holding one does not keep the responder alive. Compare it with the responder you
/// expect:
///
/// ```swift
/// if case .handled(let handled) = outcome {
///     #expect(handled.handlers == [ResponderID(order)])
/// }
/// ```
public struct ResponderID: Hashable, Sendable, CustomStringConvertible {
    /// The identity of the responder object (or its stand-in); equality and hashing use only this.
    public let objectID: ObjectIdentifier
    /// The responder's ``Responder/label`` when the identity was taken.
    public let label: String

    /// The identity of `responder`.
    public init(_ responder: any Responder) {
        self.objectID = ObjectIdentifier(responder)
        self.label = responder.label
    }

    /// An identity for something that stands in a responder's place: a relay whose entry is
    /// gone, or a responder of another process, which an adapter represents by an object of its
    /// own (one object per remote responder, kept alive as long as its identity must stay
    /// distinct).
    ///
    /// ```swift
    /// final class RemoteResponderHandle: Sendable {}
    /// let handle = RemoteResponderHandle()
    /// let id = ResponderID(objectID: ObjectIdentifier(handle), label: "backend/OrderService")
    /// ```
    public init(objectID: ObjectIdentifier, label: String) {
        self.objectID = objectID
        self.label = label
    }

    /// Two identities are equal when they name the same object.
    public static func == (lhs: ResponderID, rhs: ResponderID) -> Bool {
        lhs.objectID == rhs.objectID
    }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(objectID)
    }

    /// The responder's label.
    public var description: String { label }
}

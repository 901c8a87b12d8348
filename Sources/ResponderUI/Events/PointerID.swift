/// The identity of one pointer (a finger, a mouse button): the same for every phase of its
/// sequence, different for pointers that are down at the same time.
public struct PointerID: Hashable, Sendable, CustomStringConvertible {
    /// The raw identifier.
    public let rawValue: Int

    /// A pointer identity.
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The first (or only) pointer.
    public static let primary = PointerID(0)

    /// `pointer 0`.
    public var description: String { "pointer \(rawValue)" }
}

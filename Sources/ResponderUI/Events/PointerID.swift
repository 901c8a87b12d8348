/// The identity of one pointer (a finger, a mouse button): the same for every phase of its
/// sequence, different for pointers that are down at the same time.
public struct PointerID: Hashable, Sendable, CustomStringConvertible {
    /// The number the input source gives the pointer; 0 is ``primary``.
    public let rawValue: Int

    /// The pointer the input source numbers `rawValue`.
    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    /// The first (or only) pointer.
    public static let primary = PointerID(0)

    /// `pointer 0`.
    public var description: String { "pointer \(rawValue)" }
}

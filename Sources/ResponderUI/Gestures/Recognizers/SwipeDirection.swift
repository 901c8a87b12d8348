/// The directions a ``SwipeGestureRecognizer`` accepts, in window axes (y grows downwards).
///
/// ```swift
/// SwipeGestureRecognizer(direction: [.left, .right])
/// ```
public struct SwipeDirection: OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The directions' bits.
    public let rawValue: Int

    /// A set of directions from its bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Towards larger x.
    public static let right = SwipeDirection(rawValue: 1 << 0)
    /// Towards smaller x.
    public static let left = SwipeDirection(rawValue: 1 << 1)
    /// Towards smaller y.
    public static let up = SwipeDirection(rawValue: 1 << 2)
    /// Towards larger y.
    public static let down = SwipeDirection(rawValue: 1 << 3)

    /// The directions' names, as `[left, right]`.
    public var description: String {
        let names = [(Self.right, "right"), (.left, "left"), (.up, "up"), (.down, "down")]
            .filter { contains($0.0) }.map(\.1)
        return "[\(names.joined(separator: ", "))]"
    }
}

/// Distances inwards from each edge of a rectangle; negative values push an edge outwards.
///
/// Used for hit-area insets: `EdgeInsets(all: -10)` makes a 24-point icon answer taps 10 points
/// around it.
public struct EdgeInsets: Hashable, Sendable, CustomStringConvertible {
    /// Inset of the top edge.
    public var top: Double
    /// Inset of the left edge.
    public var left: Double
    /// Inset of the bottom edge.
    public var bottom: Double
    /// Inset of the right edge.
    public var right: Double

    /// Insets for each edge.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge.
    public init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }

    /// No inset.
    public static let zero = EdgeInsets()

    /// `{top, left, bottom, right}`.
    public var description: String { "{\(top), \(left), \(bottom), \(right)}" }
}

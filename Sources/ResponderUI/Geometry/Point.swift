/// A location in a view's coordinate system, in points.
///
/// ```swift
/// let tap = Point(x: 12, y: 40)
/// let moved = tap + Point(x: 5, y: 0)
/// ```
public struct Point: Hashable, Sendable, CustomStringConvertible {
    /// The horizontal coordinate; grows to the right.
    public var x: Double
    /// The vertical coordinate; grows downwards.
    public var y: Double

    /// A point at `x`, `y`.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Component-wise sum (moving a point by an offset).
    public static func + (lhs: Point, rhs: Point) -> Point {
        Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
    }

    /// Component-wise difference (the offset from `rhs` to `lhs`).
    public static func - (lhs: Point, rhs: Point) -> Point {
        Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
    }

    /// The straight-line distance to `other`.
    public func distance(to other: Point) -> Double {
        let dx = other.x - x
        let dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    /// `(12.0, 40.0)`.
    public var description: String { "(\(x), \(y))" }
}

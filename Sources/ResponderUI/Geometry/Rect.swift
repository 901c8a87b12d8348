/// A rectangle: an origin and a size.
///
/// Containment is half-open, like pixels: the left and top edges are inside, the right and
/// bottom edges are outside, so two rectangles that share an edge never both contain a point on
/// it.
///
/// ```swift
/// let button = Rect(x: 0, y: 0, width: 44, height: 44)
/// button.contains(Point(x: 0, y: 43.5))   // true
/// button.contains(Point(x: 44, y: 10))    // false: the right edge is outside
/// button.inset(by: EdgeInsets(all: -10)).contains(Point(x: -10, y: -10))   // true
/// ```
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    /// The top-left corner.
    public var origin: Point
    /// The extent; a negative width or height makes an empty rectangle.
    public var size: Size

    /// A rectangle at `origin` of `size`.
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// A rectangle from its coordinates.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(origin: .zero, size: .zero)

    /// The left edge (inside the rectangle).
    public var minX: Double { origin.x }
    /// The top edge (inside the rectangle).
    public var minY: Double { origin.y }
    /// The right edge (outside the rectangle).
    public var maxX: Double { origin.x + size.width }
    /// The bottom edge (outside the rectangle).
    public var maxY: Double { origin.y + size.height }
    /// The width of ``size``; zero or negative for an empty rectangle.
    public var width: Double { size.width }
    /// The height of ``size``; zero or negative for an empty rectangle.
    public var height: Double { size.height }

    /// Whether the rectangle contains no point (zero or negative width or height).
    public var isEmpty: Bool { !(size.width > 0 && size.height > 0) }

    /// Whether `point` lies inside: `minX <= x < maxX` and `minY <= y < maxY`.
    @inlinable
    public func contains(_ point: Point) -> Bool {
        point.x >= origin.x && point.x < origin.x + size.width
            && point.y >= origin.y && point.y < origin.y + size.height
    }

    /// The rectangle moved inwards by `insets` on each side; negative insets enlarge it (the way
    /// `CGRectInset(bounds, -10, -10)` enlarges a touch area).
    public func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: origin.x + insets.left,
            y: origin.y + insets.top,
            width: size.width - insets.left - insets.right,
            height: size.height - insets.top - insets.bottom)
    }

    /// The rectangle moved by `offset`.
    public func offsetBy(_ offset: Point) -> Rect {
        Rect(origin: origin + offset, size: size)
    }

    /// `{(0.0, 0.0), 44.0×44.0}`.
    public var description: String { "{\(origin), \(size)}" }
}

/// The pointers of a gesture attempt that are down, with their last locations (window
/// coordinates), and their centroid, which costs the same to read with one pointer down or a
/// thousand.
///
/// Up to ``exactLimit`` pointers, the centroid is summed afresh at each read, so it is exact.
/// Above, a running sum is read: each change adds the new location and takes the old one away,
/// and the sum is made afresh every ``resumInterval`` changes, so that rounding cannot build up.
package struct PointerLocations: ExpressibleByDictionaryLiteral {
    /// Up to this many pointers, the centroid is summed afresh at each read.
    package static let exactLimit = 32
    /// The running sum is made afresh after this many changes.
    package static let resumInterval = 1_024

    private var locations: [PointerID: Point] = [:]
    private var sum = Point.zero
    private var changesSinceResum = 0

    package init(dictionaryLiteral elements: (PointerID, Point)...) {
        for (pointer, location) in elements { self[pointer] = location }
    }

    /// The last location of `pointer`, `nil` when it is not down; setting `nil` lifts it.
    package subscript(pointer: PointerID) -> Point? {
        get { locations[pointer] }
        set {
            let old: Point?
            if let newValue {
                old = locations.updateValue(newValue, forKey: pointer)
                sum = Point(x: sum.x + newValue.x, y: sum.y + newValue.y)
            } else {
                old = locations.removeValue(forKey: pointer)
            }
            if let old { sum = Point(x: sum.x - old.x, y: sum.y - old.y) }
            changesSinceResum += 1
            if changesSinceResum >= Self.resumInterval || locations.isEmpty { resum() }
        }
    }

    package var isEmpty: Bool { locations.isEmpty }
    package var count: Int { locations.count }
    /// The pointers down, in no particular order.
    package var pointers: Dictionary<PointerID, Point>.Keys { locations.keys }

    /// The centroid of the pointers down; `nil` when none is.
    package var centroid: Point? {
        guard !locations.isEmpty else { return nil }
        let total = locations.count <= Self.exactLimit ? exactSum : sum
        return Point(x: total.x / Double(locations.count), y: total.y / Double(locations.count))
    }

    private var exactSum: Point {
        locations.values.reduce(Point.zero) { Point(x: $0.x + $1.x, y: $0.y + $1.y) }
    }

    private mutating func resum() {
        sum = exactSum
        changesSinceResum = 0
    }
}

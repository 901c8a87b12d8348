import ResponderChainTesting
import ResponderUI
import Testing

/// The locations of an attempt's pointers, and their centroid kept as they change.
@Suite("Pointer locations")
struct PointerLocationsTests {
    /// The centroid summed afresh, as the recognizers once computed it at every read.
    private static func freshCentroid(_ locations: [PointerID: Point]) -> Point {
        let sum = locations.values.reduce(Point.zero) { Point(x: $0.x + $1.x, y: $0.y + $1.y) }
        return Point(x: sum.x / Double(locations.count), y: sum.y / Double(locations.count))
    }

    @Test(
        "the centroid follows the pointers as they go down, move and lift, within a billionth of a point of a fresh sum, below its exact limit and far above it",
        arguments: [PointerLocations.exactLimit, 1_000])
    func centroidFollowsThePointers(pointers count: Int) throws {
        var random = SplitMix64(seed: UInt64(count))
        var locations: PointerLocations = [:]
        var reference: [PointerID: Point] = [:]
        func set(_ pointer: PointerID, _ location: Point?) {
            locations[pointer] = location
            reference[pointer] = location
        }
        for index in 0..<count {
            set(
                PointerID(index),
                Point(x: Double(random.int(in: 0...4_000)) / 7, y: Double(random.int(in: 0...4_000)) / 3))
        }
        for step in 0..<20_000 {
            let pointer = PointerID(random.int(in: 0...(count - 1)))
            let lifts = step % 7 == 0
            set(
                pointer,
                lifts
                    ? nil
                    : Point(
                        x: Double(random.int(in: 0...4_000)) / 7, y: Double(random.int(in: 0...4_000)) / 3))
            if lifts { set(pointer, Point(x: 1, y: 2)) }
        }
        #expect(locations.count == reference.count)
        let centroid = try #require(locations.centroid)
        let expected = Self.freshCentroid(reference)
        #expect(
            abs(centroid.x - expected.x) < 1e-9 && abs(centroid.y - expected.y) < 1e-9,
            "\(centroid) against \(expected)")
        for pointer in reference.keys { set(pointer, nil) }
        #expect(locations.isEmpty)
        #expect(locations.centroid == nil)
    }
}

import ResponderChainTesting

/// Draws for the property tests, from the kit's seeded generator: the same seed gives the same
/// trees and points.
extension SplitMix64 {
    /// An integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &self)
    }

    /// `true` with probability `percent`/100.
    mutating func chance(_ percent: Int) -> Bool {
        int(in: 0...99) < percent
    }

    /// One of `values`.
    mutating func pick<T>(_ values: [T]) -> T {
        values[int(in: 0...(values.count - 1))]
    }
}

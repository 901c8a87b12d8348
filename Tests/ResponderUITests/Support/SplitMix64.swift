/// A small seeded pseudo-random generator (SplitMix64), so that property tests are
/// reproducible: the same seed gives the same trees and points.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        self.state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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

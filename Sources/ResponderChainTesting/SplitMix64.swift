/// A small seeded pseudo-random generator (SplitMix64): the same seed gives the same numbers on
/// every run, so that a test's "random" suspension points, trees and interleavings are
/// reproducible.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let yields = Int(random.next() % 3)
/// let delay = Int.random(in: 0...9, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose numbers are decided by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

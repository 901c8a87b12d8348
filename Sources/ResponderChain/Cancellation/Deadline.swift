/// A send's deadline as the routing machinery stores it: an offset from an instant fixed when the
/// process first needs one.
///
/// `ContinuousClock.Instant` has no fixed layout outside the standard library, so every copy,
/// `nil` check and comparison of an `Instant?` kept in the per-send context goes through the
/// runtime's value witnesses; a `Duration` is two integers. Only the public API speaks in
/// instants.
struct Deadline: Comparable, Sendable {
    /// The time from ``reference`` to the deadline.
    private let offset: Duration

    /// The instant every offset counts from.
    private static let reference = ContinuousClock.now

    init(_ instant: ContinuousClock.Instant) {
        offset = Self.reference.duration(to: instant)
    }

    /// The deadline as an instant of the continuous clock.
    var instant: ContinuousClock.Instant {
        Self.reference.advanced(by: offset)
    }

    /// Whether the deadline has passed.
    var hasPassed: Bool {
        Deadline(.now) >= self
    }

    static func < (lhs: Deadline, rhs: Deadline) -> Bool {
        lhs.offset < rhs.offset
    }
}

/// An instant of the continuous clock as the routing machinery stores it (a send's deadline, the
/// moment an event was posted): an offset from an instant fixed when the process first needs one.
///
/// `ContinuousClock.Instant` has no fixed layout outside the standard library, so every copy,
/// `nil` check and comparison of an `Instant?` kept in the per-send state goes through the
/// runtime's value witnesses; a `Duration` is two integers. Only the public API speaks in
/// instants.
struct Moment: Comparable, Sendable {
    /// The time from ``reference`` to this moment.
    private let offset: Duration

    /// The instant every offset counts from.
    private static let reference = ContinuousClock.now

    init(_ instant: ContinuousClock.Instant) {
        offset = Self.reference.duration(to: instant)
    }

    /// This moment as an instant of the continuous clock.
    var instant: ContinuousClock.Instant {
        Self.reference.advanced(by: offset)
    }

    /// Now.
    static var now: Moment { Moment(.now) }

    /// Whether this moment has passed.
    var hasPassed: Bool {
        Moment.now >= self
    }

    /// The time from this moment to now.
    var durationUntilNow: Duration {
        Moment.now.offset - offset
    }

    static func < (lhs: Moment, rhs: Moment) -> Bool {
        lhs.offset < rhs.offset
    }
}

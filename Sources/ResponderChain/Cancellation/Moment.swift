/// An instant of the continuous clock as the routing machinery keeps it (a send's deadline, the
/// moment an event was posted, the start of a traced hop): an offset from the first reading in
/// the process.
///
/// A `Duration` has a fixed layout; a `ContinuousClock.Instant` is resilient, so an `Instant?` in
/// per-send state would go through value witnesses and metadata lookups at every use. Only the
/// public API speaks in instants.
struct Moment: Comparable, Sendable {
    /// The time from ``origin`` to this moment.
    private let offset: Duration

    /// The instant every offset counts from: the first reading in the process.
    private static let origin = ContinuousClock.now

    init(_ instant: ContinuousClock.Instant) {
        offset = Self.origin.duration(to: instant)
    }

    /// The current moment. Never inlined, so that its resilient `Instant` temporaries stay out
    /// of the async frames of its callers.
    @inline(never)
    static var now: Moment { Moment(.now) }

    /// This moment as an instant of the continuous clock.
    var instant: ContinuousClock.Instant {
        Self.origin.advanced(by: offset)
    }

    /// Whether this moment has passed.
    var hasPassed: Bool {
        Moment.now >= self
    }

    /// The time from `earlier` to `later`.
    static func - (later: Moment, earlier: Moment) -> Duration {
        later.offset - earlier.offset
    }

    static func < (lhs: Moment, rhs: Moment) -> Bool {
        lhs.offset < rhs.offset
    }
}

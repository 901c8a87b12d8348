/// An instant of the continuous clock as the routing machinery keeps it (a send's deadline, the
/// moment an event was posted, the start of a traced hop): an offset from the first reading in
/// the process.
///
/// A `Duration` has a fixed layout, known where it is used. A `ContinuousClock.Instant` does not
/// (the standard library may change it): every copy and `nil` check of an `Instant?` held in the
/// per-send state goes through its value witnesses, and an async function that keeps one across
/// an `await` looks up its type's metadata and makes extra task allocations at every call. Only
/// the public API speaks in instants.
struct Moment: Comparable, Sendable {
    /// The time from ``origin`` to this moment.
    private let offset: Duration

    /// The instant every offset counts from: the first reading in the process.
    private static let origin = ContinuousClock.now

    init(_ instant: ContinuousClock.Instant) {
        offset = Self.origin.duration(to: instant)
    }

    /// Now.
    ///
    /// Never inlined: inlined into an async function, its `Instant` temporaries would be
    /// allocated in the async frame again.
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

/// The clock of traced hops and posts: `ContinuousClock` readings, as offsets from one fixed
/// instant.
///
/// A `Duration` has a fixed layout, known where it is used. A `ContinuousClock.Instant` does not
/// (the standard library may change it): an async function that keeps one across an `await` (the
/// start of a hop, kept while its handlers run) looks up its type's metadata and makes two extra
/// task allocations at every call, and a struct holding one is copied through its value
/// witnesses. Taking readings here, in a synchronous function, keeps both off the traced path.
enum TraceClock {
    /// The instant readings are measured from: the first reading in the process.
    private static let origin = ContinuousClock.now

    /// The time since ``origin``: subtract two readings for the duration between them.
    ///
    /// Never inlined: inlined into an async function, its `Instant` temporaries would be
    /// allocated in the async frame again.
    @inline(never)
    static func now() -> Duration {
        origin.duration(to: .now)
    }
}

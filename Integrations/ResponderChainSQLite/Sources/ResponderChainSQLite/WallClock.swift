internal import Foundation

/// Wall time, in nanoseconds since 1970, as a store measures it: the wall time read once when the
/// store opens, plus the time since then on the store's clock (a test's manual clock moves it).
///
/// A stored deadline must mean the same instant after a restart, which no monotonic clock's
/// instant does: the store keeps wall time, and this is the one place it reads it.
struct WallClock: Sendable {
    private let originNanoseconds: Int64
    private let elapsed: @Sendable () -> Duration

    /// A wall clock that reads the system's wall time now and moves with `clock` from here on.
    init(clock: some Clock<Duration>) {
        originNanoseconds = Int64((Date().timeIntervalSince1970 * 1e9).rounded())
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
    }

    /// Now, in nanoseconds since 1970.
    var nanoseconds: Int64 { originNanoseconds + elapsed().nanoseconds }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating far outside ±292 years).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

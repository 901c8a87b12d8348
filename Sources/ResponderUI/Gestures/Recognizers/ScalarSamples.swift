/// The recent values of a continuous gesture's measure (a pinch's scale, a rotation's angle),
/// each with the time it was read, for its velocity: the change per second over the last 100 ms.
struct ScalarSamples {
    private var samples: [(time: EventSystem.Instant, value: Double)] = []

    /// Forgets every sample but `value` at `time`.
    mutating func restart(at time: EventSystem.Instant, with value: Double) {
        samples = [(time, value)]
    }

    /// Adds `value` at `time`, keeping the samples of the last 100 ms (at most 16: a clock that
    /// does not move adds nothing to the velocity).
    mutating func record(_ value: Double, at time: EventSystem.Instant) {
        samples.append((time, value))
        var stale = 0
        while stale < samples.count - 1,
            time - samples[stale].time > .milliseconds(100) || samples.count - stale > 16
        {
            stale += 1
        }
        samples.removeFirst(stale)
    }

    /// The change per second from the oldest sample kept to the newest; 0 with fewer than two
    /// samples apart in time.
    var velocity: Double {
        guard let first = samples.first, let last = samples.last, last.time > first.time else { return 0 }
        let (seconds, attoseconds) = (last.time - first.time).components
        return (last.value - first.value) / (Double(seconds) + Double(attoseconds) / 1e18)
    }
}

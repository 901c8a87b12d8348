/// The time gesture recognizers read: how long a press has lasted, how fast a pan moves, whether a
/// second tap came soon enough. A window's recognizers read its ``Window/gestureClock``.
///
/// Inject ``ManualGestureClock`` to drive time by hand (tests, replayed input): timers fire when
/// it is advanced, synchronously, in deadline order. ``ContinuousGestureClock``, the default,
/// follows `ContinuousClock`.
///
/// ```swift
/// let clock = ManualGestureClock()
/// window.gestureClock = clock
/// await window.dispatch(.began, at: point)
/// clock.advance(by: .milliseconds(600))   // a long press recognizes here
/// ```
///
/// ## Implementation requirements
/// - ``now`` never goes backwards.
/// - A timer fires once, on the main actor, no earlier than its deadline by ``now``, and never
///   after ``GestureTimer/cancel()`` returned.
@MainActor
public protocol GestureClock: AnyObject {
    /// The time elapsed since the clock's origin.
    var now: Duration { get }

    /// Calls `fire` once ``now`` has reached `deadline`, unless the returned timer is cancelled
    /// first.
    func schedule(at deadline: Duration, _ fire: @escaping @MainActor () -> Void) -> GestureTimer
}

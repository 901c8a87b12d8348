// The window layer's own clock, replaced by the event system's: a window's gesture recognizers
// read and set their timers on the clock of its event system (`EventSystem(clock:)`). The old
// names are kept, unavailable, so that code written against them fails to compile with an error
// that says what to use instead (Docs/Migration.md).

/// Replaced: gesture time is the clock of the window's event system.
@available(
    *, unavailable,
    message:
        "gesture recognizers read the clock of the window's event system: give the application EventSystem(clock:), a ManualClock in tests"
)
@MainActor
public protocol GestureClock: AnyObject {}

/// Replaced: the default clock of an event system, `ContinuousClock`, is the default gesture
/// clock.
@available(
    *, unavailable,
    message:
        "the default gesture clock is the event system's default clock: EventSystem() runs on ContinuousClock"
)
@MainActor
public final class ContinuousGestureClock: GestureClock {
    /// Replaced: `EventSystem()` runs on `ContinuousClock`.
    public init() {}
}

/// Replaced: the test kit's `ManualClock` drives every timer of a system, its gestures' included.
@available(
    *, unavailable,
    message:
        "use ManualClock (ResponderChainTesting): Application(system: EventSystem(clock: clock)), then 'await clock.advance(by:)'"
)
@MainActor
public final class ManualGestureClock: GestureClock {
    /// Replaced: `ManualClock(now:)` takes an `EventSystem.Instant`.
    public init(now: Duration = .zero) {}
}

/// Replaced: a recognizer's timers (``GestureRecognizer/schedule(after:_:)``) are the event
/// system's, cancelled when its attempt ends.
@available(
    *, unavailable,
    message:
        "a recognizer's timers are set with schedule(after:_:) on its window's event system and cancelled when its attempt ends"
)
@MainActor
public final class GestureTimer {}

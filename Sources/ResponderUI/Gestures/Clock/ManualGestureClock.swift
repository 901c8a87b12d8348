/// A ``GestureClock`` that moves only when told: ``advance(by:)`` runs the timers that fall due,
/// in deadline order (ties in scheduling order), synchronously on the main actor.
///
/// ```swift
/// let clock = ManualGestureClock()
/// window.gestureClock = clock
/// await window.dispatch(.began, at: point)
/// clock.advance(by: .milliseconds(499))   // nothing yet
/// clock.advance(by: .milliseconds(1))     // the long press begins, in this call
/// ```
@MainActor
public final class ManualGestureClock: GestureClock {
    /// The time the clock has been advanced to.
    public private(set) var now: Duration
    private var timers: [(timer: GestureTimer, order: Int)] = []
    private var scheduled = 0

    /// A clock at `now`.
    public init(now: Duration = .zero) {
        self.now = now
    }

    /// Registers `fire` for `deadline`; a deadline already reached fires at the next advance.
    public func schedule(at deadline: Duration, _ fire: @escaping @MainActor () -> Void) -> GestureTimer {
        let timer = GestureTimer(deadline: deadline, fire)
        timers.removeAll { !$0.timer.isPending }  // cancelled ones go before they pile up
        timers.append((timer, scheduled))
        scheduled += 1
        return timer
    }

    /// How many timers are still to fire.
    public var pendingTimers: Int {
        timers.count { $0.timer.isPending }
    }

    /// Moves the clock `duration` forward, firing each timer that falls due on the way at its
    /// own deadline (``now`` reads it while the timer runs), timers scheduled meanwhile included.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock does not go backwards")
        advance(to: now + duration)
    }

    /// Moves the clock to `instant` (never backwards), firing the timers due by then.
    public func advance(to instant: Duration) {
        while let next = nextDue(by: instant) {
            now = max(now, next.deadline)
            next.fire()
        }
        now = max(now, instant)
    }

    private func nextDue(by instant: Duration) -> GestureTimer? {
        timers.removeAll { !$0.timer.isPending }
        guard
            let index = timers.indices.filter({ timers[$0].timer.deadline <= instant })
                .min(by: {
                    (timers[$0].timer.deadline, timers[$0].order) < (
                        timers[$1].timer.deadline, timers[$1].order
                    )
                })
        else { return nil }
        return timers.remove(at: index).timer
    }
}

/// The default ``GestureClock``: real time, from `ContinuousClock`. A timer sleeps in a task of
/// its own and fires on the main actor; cancelling it cancels the task.
@MainActor
public final class ContinuousGestureClock: GestureClock {
    private let origin = ContinuousClock.now

    /// A clock whose origin is now.
    public init() {}

    /// The time since the clock was created.
    public var now: Duration { ContinuousClock.now - origin }

    /// Sleeps until `deadline`, then fires on the main actor.
    public func schedule(at deadline: Duration, _ fire: @escaping @MainActor () -> Void) -> GestureTimer {
        let instant = origin.advanced(by: deadline)
        let sleeper = Task { @MainActor in
            try? await Task.sleep(until: instant, clock: .continuous)
        }
        let timer = GestureTimer(deadline: deadline, onCancel: { sleeper.cancel() }, fire)
        Task { @MainActor in
            await sleeper.value
            timer.fire()  // nothing when it was cancelled meanwhile
        }
        return timer
    }
}

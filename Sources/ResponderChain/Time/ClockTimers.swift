/// The timers of an event system on a real clock (`ContinuousClock` by default, or any `Clock`
/// with `Duration` steps): one heap, and one task that sleeps on the clock until the earliest
/// deadline, fires what is due and sleeps again. The task ends when it wakes and finds no timer
/// left; cancelling a timer does not wake it (the next send's deadline would only start another).
///
/// A timer's work runs in a task of its own when it fires, so a slow one delays no other.
/// Scheduling a timer earlier than the one the task sleeps for replaces the task.
package final class ClockTimers: TimerScheduler {
    private struct State: Sendable {
        var heap = TimerHeap()
        /// The deadline the driving task sleeps until, if one runs.
        var target: EventSystem.Instant?
        /// The driving task, once it is stored.
        var driver: Task<Void, Never>?
        /// Counts the driving tasks started; a task whose number is no longer this one stops.
        var generation: UInt64 = 0
    }

    private let state = Locked(State())
    private let readNow: @Sendable () -> EventSystem.Instant
    private let sleepUntil: @Sendable (EventSystem.Instant) async throws -> Void

    /// Timers on `clock`. Every system on `ContinuousClock` shares its origin: the first reading
    /// in the process (see ``EventSystem/Instant``).
    package init<C: Clock>(_ clock: C) where C.Duration == Duration {
        if let continuous = clock as? ContinuousClock {
            let origin = Self.continuousOrigin
            readNow = { EventSystem.Instant(offset: origin.duration(to: continuous.now)) }
            sleepUntil = { try await continuous.sleep(until: origin.advanced(by: $0.offset), tolerance: nil) }
        } else {
            let origin = clock.now
            readNow = { EventSystem.Instant(offset: origin.duration(to: clock.now)) }
            sleepUntil = { try await clock.sleep(until: origin.advanced(by: $0.offset), tolerance: nil) }
        }
    }

    /// The origin of every system on `ContinuousClock`: an immutable constant, read once.
    private static let continuousOrigin = ContinuousClock.now

    package var now: EventSystem.Instant { readNow() }

    /// Nothing awaits a fired timer's work: it runs in a task of its own.
    package var awaitsTimerWork: Bool { false }

    /// The driving task while one runs (a timer waits), `nil` once it has ended.
    package var drivingTask: Task<Void, Never>? { state.withLock { $0.driver } }

    package func schedule(
        at deadline: EventSystem.Instant, for purpose: TimerPurpose,
        _ work: @escaping @Sendable () async -> Void
    ) -> TimerID {
        let (id, start) = state.withLock {
            state -> (TimerID, (generation: UInt64, old: Task<Void, Never>?)?) in
            let id = state.heap.schedule(at: deadline, for: purpose, work)
            guard state.target.map({ deadline < $0 }) ?? true else { return (id, nil) }
            state.target = deadline
            state.generation += 1
            let old = state.driver
            state.driver = nil
            return (id, (state.generation, old))
        }
        if let start {
            start.old?.cancel()
            // Holds the timers strongly, as the loop would once running: a weak capture would
            // give the object a side table, and every retain and release of it (a send with a
            // deadline copies it at each hop's stop check) would take the runtime's slow path
            // (Docs/Benchmarks.md, "A send with a deadline"). The task ends when no timer waits,
            // and the timers go with it: nothing is left to cancel when they are freed.
            let driver = Task { await self.drive(generation: start.generation) }
            let current = state.withLock { state -> Bool in
                // Not stored when it has ended already (it found nothing left to fire): a
                // stored task is one that is running.
                guard state.generation == start.generation, state.target != nil else { return false }
                state.driver = driver
                return true
            }
            if !current { driver.cancel() }
        }
        return id
    }

    @discardableResult
    package func cancel(_ timer: TimerID) -> Bool {
        state.withLock { $0.heap.cancel(timer) }
    }

    /// The driving task: sleeps until the earliest deadline, fires what is due, and goes on while
    /// timers wait and no newer task replaced it.
    private func drive(generation: UInt64) async {
        while true {
            let target = state.withLock { state -> EventSystem.Instant? in
                guard state.generation == generation else { return nil }
                guard let earliest = state.heap.earliest() else {
                    state.target = nil
                    state.driver = nil
                    return nil
                }
                state.target = earliest
                return earliest
            }
            guard let target else { return }
            do {
                try await sleepUntil(target)
            } catch {
                // Replaced by a task for an earlier deadline, or the clock gave up the sleep:
                // the loop reads the state again (and stops if replaced).
                if Task.isCancelled { return }
            }
            let now = readNow()
            let due = state.withLock { state -> [@Sendable () async -> Void] in
                guard state.generation == generation else { return [] }
                var due: [@Sendable () async -> Void] = []
                while let timer = state.heap.popDue(by: now) { due.append(timer.work) }
                return due
            }
            for work in due { Task { await work() } }
        }
    }
}

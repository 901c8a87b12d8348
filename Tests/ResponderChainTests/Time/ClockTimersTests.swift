import ResponderChain
import ResponderChainTesting
import Testing

/// The timers of a system on a real clock. Deadlines are short and the tests wait for the timers'
/// own signals (a stream their work writes to), never for time to pass.
@Suite("Timers on a real clock", .timeLimit(.minutes(1)))
struct ClockTimersTests {
    /// A stream the timers' work writes its label to.
    private struct Fired {
        let stream: AsyncStream<String>
        let continuation: AsyncStream<String>.Continuation

        init() { (stream, continuation) = AsyncStream.makeStream() }

        func work(_ label: String) -> @Sendable () async -> Void {
            let continuation = continuation
            return { continuation.yield(label) }
        }

        /// The next `count` labels fired.
        func next(_ count: Int) async -> [String] {
            var labels: [String] = []
            for await label in stream {
                labels.append(label)
                if labels.count == count { break }
            }
            return labels
        }
    }

    @Test("a timer fires once its deadline is reached on the clock, and the driving task then ends")
    func timerFires() async throws {
        let timers = ClockTimers(ContinuousClock())
        let fired = Fired()
        let start = timers.now
        _ = timers.schedule(at: start + .milliseconds(20), for: .sleep, fired.work("due"))
        let driver = try #require(timers.drivingTask)

        #expect(await fired.next(1) == ["due"])
        #expect(timers.now >= start + .milliseconds(20))
        // Nothing is left to fire: the driving task ends by itself.
        await driver.value
        #expect(timers.drivingTask == nil)
    }

    @Test("a timer scheduled while the driving task sleeps for a later one fires first")
    func earlierTimerFiresFirst() async throws {
        let timers = ClockTimers(ContinuousClock())
        let fired = Fired()
        let late = timers.schedule(at: timers.now + .seconds(60), for: .sleep, fired.work("late"))
        let sleepingForLate = try #require(timers.drivingTask)
        _ = timers.schedule(at: timers.now + .milliseconds(20), for: .sleep, fired.work("early"))

        #expect(await fired.next(1) == ["early"])
        // The task that slept for the later timer was replaced, and has ended.
        await sleepingForLate.value
        #expect(timers.cancel(late))
        #expect(timers.drivingTask != nil)
    }

    @Test("a cancelled timer never fires; the ones after it do")
    func cancelledNeverFires() async throws {
        let timers = ClockTimers(ContinuousClock())
        let fired = Fired()
        let start = timers.now
        let cancelled = timers.schedule(at: start + .milliseconds(10), for: .sleep, fired.work("cancelled"))
        _ = timers.schedule(at: start + .milliseconds(60), for: .sleep, fired.work("kept"))
        #expect(timers.cancel(cancelled))

        #expect(await fired.next(1) == ["kept"])
        #expect(!timers.cancel(cancelled))
        fired.continuation.finish()
        // Nothing else was written: the cancelled timer's work never ran.
        #expect(await fired.next(1) == [])
    }

    @Test("the driving task ends when the last timer is cancelled and starts again for a new one")
    func drivingTaskEndsAndRestarts() async throws {
        let timers = ClockTimers(ContinuousClock())
        let fired = Fired()
        let first = timers.schedule(at: timers.now + .milliseconds(10), for: .sleep, fired.work("first"))
        let driver = try #require(timers.drivingTask)
        #expect(timers.cancel(first))
        // It wakes at the cancelled timer's deadline, finds nothing, and ends.
        await driver.value
        #expect(timers.drivingTask == nil)

        _ = timers.schedule(at: timers.now + .milliseconds(10), for: .sleep, fired.work("second"))
        #expect(await fired.next(1) == ["second"])
    }

    /// A clock of the test's own, not `ContinuousClock` and not a scheduler: a system on it gets
    /// the real-clock timers, which sleep on it.
    private struct WrappedClock: Clock {
        let manual: ManualClock
        var now: EventSystem.Instant { manual.now }
        var minimumResolution: Duration { .zero }
        func sleep(until deadline: EventSystem.Instant, tolerance: Duration?) async throws {
            try await manual.sleep(until: deadline, tolerance: tolerance)
        }
    }

    @Test("a system on another clock keeps its timers on that clock: a send times out when it says so")
    func systemOnAnotherClock() async throws {
        let manual = ManualClock()
        let system = EventSystem(clock: WrappedClock(manual: manual))
        #expect(system.timers is ClockTimers)
        let gate = Gate()
        let parked = ScriptedResponder("parked", .park(gate), root: true, system: system)

        let send = Task { await parked.send(Ping(), options: SendOptions(timeout: .seconds(30))) }
        // The timers' driving task sleeps on the wrapped clock: one sleep on the manual clock.
        try await manual.waitForTimers(1)
        try await gate.waitForArrivals(1)
        #expect(manual.nextDeadline == EventSystem.Instant(offset: .seconds(30)))
        await manual.advance(by: .seconds(30))

        let outcome = await send.value
        #expect(outcome.kind == .timedOut)
        #expect(system.now == EventSystem.Instant(offset: .seconds(30)))
    }

    private struct Ping: Event {}
}

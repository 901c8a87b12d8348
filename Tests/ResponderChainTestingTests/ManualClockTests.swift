import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Manual clock", .timeLimit(.minutes(1)))
struct ManualClockTests {
    let clock = ManualClock()
    /// What the timers' work did, in order.
    let timeline = Timeline()

    private static func at(_ seconds: Double) -> EventSystem.Instant {
        EventSystem.Instant(offset: .seconds(seconds))
    }

    /// Schedules a timer at `seconds` whose work notes `label` and the clock's reading.
    private func note(_ label: String, at seconds: Double) {
        _ = clock.schedule(at: Self.at(seconds), for: .other(label)) { [clock, timeline] in
            timeline.append("\(label) at \(clock.now)")
        }
    }

    @Test("advance fires the due timers in deadline order, ties in scheduling order, each at its own instant")
    func advanceFiresInDeadlineOrder() async {
        note("c", at: 3)
        note("a", at: 1)
        note("b", at: 2)
        note("a2", at: 1)
        note("late", at: 10)

        await clock.advance(by: .seconds(5))

        #expect(
            timeline.entriesSoFar == [
                "a at 1.0 seconds", "a2 at 1.0 seconds", "b at 2.0 seconds", "c at 3.0 seconds",
            ])
        #expect(clock.now == Self.at(5))
        #expect(clock.pendingTimers.map(\.purpose) == ["late"])
        #expect(clock.nextDeadline == Self.at(10))
    }

    @Test("advance fires a timer only once the clock reaches its deadline, not a moment before")
    func notBeforeTheDeadline() async {
        note("due", at: 30)
        await clock.advance(by: .seconds(30) - .milliseconds(1))
        #expect(timeline.entriesSoFar.isEmpty)
        #expect(clock.pendingTimerCount == 1)
        await clock.advance(by: .milliseconds(1))
        #expect(timeline.entriesSoFar == ["due at 30.0 seconds"])
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("timers scheduled by a fired timer's work fire in the same advance when they fall due by its end")
    func timersScheduledByWorkFire() async {
        _ = clock.schedule(at: Self.at(1), for: .other("first")) { [clock, timeline] in
            timeline.append("first at \(clock.now)")
            _ = clock.schedule(at: clock.now + .seconds(1), for: .other("second")) {
                timeline.append("second at \(clock.now)")
            }
            _ = clock.schedule(at: clock.now, for: .other("now")) {
                timeline.append("now at \(clock.now)")
            }
            _ = clock.schedule(at: clock.now + .seconds(9), for: .other("later")) {}
        }

        await clock.advance(by: .seconds(5))

        #expect(
            timeline.entriesSoFar == ["first at 1.0 seconds", "now at 1.0 seconds", "second at 2.0 seconds"])
        #expect(clock.pendingTimers.map(\.purpose) == ["later"])
    }

    @Test("advance returns only once the work a timer started has settled")
    func advanceAwaitsTheWork() async {
        let gate = Gate()
        _ = clock.schedule(at: Self.at(1), for: .other("slow")) { [timeline] in
            // Another task opens the gate; the work waits for it.
            Task {
                timeline.append("opening")
                gate.open()
            }
            try? await gate.pass()
            timeline.append("work done")
        }
        await clock.advance(by: .seconds(1))
        timeline.append("advanced")
        #expect(timeline.entriesSoFar == ["opening", "work done", "advanced"])
    }

    @Test("run advances to each next timer until none is left, and counts the timers fired")
    func runUntilNothingIsScheduled() async {
        note("a", at: 5)
        note("b", at: 5)
        _ = clock.schedule(at: Self.at(9), for: .other("chain")) { [clock, timeline] in
            timeline.append("chain at \(clock.now)")
            _ = clock.schedule(at: clock.now + .seconds(100), for: .other("later")) {
                timeline.append("later at \(clock.now)")
            }
        }

        let fired = await clock.run()

        #expect(fired == 4)
        #expect(
            timeline.entriesSoFar == [
                "a at 5.0 seconds", "b at 5.0 seconds", "chain at 9.0 seconds", "later at 109.0 seconds",
            ])
        #expect(clock.now == Self.at(109))
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("run stops after its limit when timers keep scheduling more")
    func runWithLimit() async {
        @Sendable func tick(_ clock: ManualClock, _ timeline: Timeline) {
            _ = clock.schedule(at: clock.now + .seconds(1), for: .other("tick")) {
                timeline.append("tick at \(clock.now)")
                tick(clock, timeline)
            }
        }
        tick(clock, timeline)
        #expect(await clock.run(limit: 3) == 3)
        #expect(timeline.entriesSoFar.count == 3)
        #expect(clock.now == Self.at(3))
        #expect(clock.pendingTimerCount == 1)
    }

    @Test("a task sleeping on the clock is resumed by the advance that reaches its deadline")
    func sleepResumedByAdvance() async throws {
        let sleeper = Task { [clock] in
            try await clock.sleep(for: .seconds(10))
            return clock.now
        }
        try await clock.waitForTimers(1)
        #expect(clock.pendingTimers.map(\.purpose) == ["a sleep"])
        await clock.advance(by: .seconds(10))
        #expect(try await sleeper.value == Self.at(10))
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("a sleep until an instant the clock has reached returns at once")
    func sleepUntilReachedInstant() async throws {
        await clock.advance(by: .seconds(2))
        try await clock.sleep(until: Self.at(1))
        try await clock.sleep(until: clock.now)
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("cancelling a sleeping task wakes it at once with CancellationError and removes its timer")
    func sleepCancelled() async throws {
        let sleeper = Task { [clock] in try await clock.sleep(for: .seconds(3_600)) }
        try await clock.waitForTimers(1)

        sleeper.cancel()

        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.pendingTimerCount == 0)
        #expect(clock.now == Self.at(0))
    }

    @Test("waitForTimers returns once that many timers are scheduled")
    func waitForTimersReturns() async throws {
        let sleepers = (1...3).map { seconds in
            Task { [clock] in try await clock.sleep(for: .seconds(seconds)) }
        }
        try await clock.waitForTimers(3)
        #expect(clock.pendingTimerCount == 3)
        await clock.advance(by: .seconds(3))
        for sleeper in sleepers { try await sleeper.value }
        // Already there: returns at once.
        try await clock.waitForTimers(0)
    }

    @Test("waitForTimers throws WaitTimedOut, with the count that was scheduled, when they never come")
    func waitForTimersTimesOut() async throws {
        note("only", at: 1)
        let error = await #expect(throws: WaitTimedOut.self) {
            try await clock.waitForTimers(2, within: .milliseconds(50))
        }
        #expect(error?.arrived == "1 scheduled")
    }
}

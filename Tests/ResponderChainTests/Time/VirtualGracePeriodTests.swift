import ResponderChain
import ResponderChainTesting
import Testing

/// The shutdown's grace period on a system whose clock is a manual one.
@Suite("Shutdown grace period in virtual time", .timeLimit(.minutes(1)))
struct VirtualGracePeriodTests {
    private struct Job: Event {}

    /// A system on a manual clock, and a root of it whose handler parks at `gate`.
    private static func parkedRoot() -> (ManualClock, EventSystem, Gate, ScriptedResponder) {
        let clock = ManualClock()
        let system = EventSystem(clock: clock)
        let gate = Gate()
        return (clock, system, gate, ScriptedResponder("parked", .park(gate), root: true, system: system))
    }

    @Test(
        "posts in flight and queued end cancelled by the shutdown when the clock reaches the grace period, not before"
    )
    func gracePeriodEndsOnTheClock() async throws {
        let (clock, system, gate, parked) = Self.parkedRoot()
        let inFlight = await parked.post(Job())
        let queued = await parked.post(Job())
        try await gate.waitForArrivals(1)

        let shutdown = Task { await system.shutDown(gracePeriod: .seconds(5)) }
        try await clock.waitForTimers(1)
        #expect(clock.pendingTimers.map(\.purpose) == ["the shutdown's grace period"])

        await clock.advance(by: .seconds(5) - .milliseconds(1))
        #expect(system.outstandingPosts == 2)

        await clock.advance(by: .milliseconds(1))
        // Ended by the time advance returns: the grace period's timer waits for the drain.
        #expect(system.outstandingPosts == 0)
        let report = await shutdown.value
        #expect(report.endedEarly == 2)
        #expect(report.finished == 0)
        let stopped = try #require(await inFlight.outcome.cancelledDetails)
        #expect(stopped.reason == .shutdown)
        #expect(stopped.whileHandling)
        let dropped = try #require(await queued.outcome.cancelledDetails)
        #expect(dropped.reason == .shutdown)
        #expect(dropped.hop == 1)
        #expect(!dropped.whileHandling)
        #expect(await parked.seen.count == 1)
    }

    @Test("posts that finish within the grace period finish, and the grace period's timer is removed")
    func drainBeforeTheGracePeriod() async throws {
        let (clock, system, gate, parked) = Self.parkedRoot()
        let ticket = await parked.post(Job())
        try await gate.waitForArrivals(1)

        let shutdown = Task { await system.shutDown(gracePeriod: .seconds(5)) }
        try await clock.waitForTimers(1)
        gate.open()

        let report = await shutdown.value
        #expect(report.finished == 1 && report.endedEarly == 0)
        #expect(await ticket.outcome.kind == .handled)
        #expect(clock.pendingTimerCount == 0)
        #expect(clock.now == EventSystem.Instant(offset: .zero))
    }

    @Test("a zero grace period on a manual clock ends the posts in flight at once, without an advance")
    func zeroGracePeriod() async throws {
        let (clock, system, gate, parked) = Self.parkedRoot()
        let ticket = await parked.post(Job())
        try await gate.waitForArrivals(1)

        let report = await system.shutDown(gracePeriod: .zero)

        #expect(report.endedEarly == 1)
        #expect(try #require(await ticket.outcome.cancelledDetails).reason == .shutdown)
        #expect(clock.pendingTimerCount == 0)
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

/// Deadlines and timeouts on a system whose clock is a manual one: exact, and without waiting.
@Suite("Deadlines in virtual time", .timeLimit(.minutes(1)))
struct VirtualDeadlineTests {
    private struct Order: Event {}

    /// A system on a manual clock, its sends traced, and a root that parks every event on
    /// a closed gate (a parked handler wakes only when the send is stopped).
    private struct Rig {
        let clock = ManualClock()
        let tracer = RecordingTracer()
        let gate = Gate()
        let system: EventSystem
        let parked: ScriptedResponder

        init() {
            system = EventSystem(tracer: tracer, clock: clock)
            parked = ScriptedResponder("parked", .park(gate), root: true, system: system)
        }

        /// Sends an order from the parked root with `options`, and returns once its handler is
        /// parked and its deadline's timer is scheduled.
        func parkedSend(_ options: SendOptions) async throws -> Task<Outcome, Never> {
            let send = Task { [parked] in await parked.send(Order(), options: options) }
            try await gate.waitForArrivals(1)
            try await clock.waitForTimers(1)
            return send
        }
    }

    private static func at(_ duration: Duration) -> EventSystem.Instant {
        EventSystem.Instant(offset: duration)
    }

    @Test(
        "a send parked in a handler with a 30 s timeout ends timed out when the clock reaches 30 s, not at 29.999 s"
    )
    func timeoutExactlyAtItsInstant() async throws {
        let rig = Rig()
        let send = try await rig.parkedSend(SendOptions(timeout: .seconds(30)))
        #expect(rig.clock.pendingTimers.map(\.deadline) == [Self.at(.seconds(30))])
        let eventID = try #require(await rig.parked.seen.first).eventID
        #expect(rig.clock.pendingTimers.map(\.purpose) == ["the deadline of Order (event \(eventID))"])

        await rig.clock.advance(by: .seconds(30) - .milliseconds(1))
        #expect(rig.tracer.outcomes.isEmpty)
        #expect(rig.clock.pendingTimerCount == 1)

        await rig.clock.advance(by: .milliseconds(1))
        // Ended, and its outcome published, by the time advance returns.
        #expect(rig.tracer.outcomes.map(\.kind) == [.timedOut])
        #expect(rig.clock.pendingTimerCount == 0)
        let stop = try #require(await send.value.timedOutDetails)
        #expect(stop.hop == 1)
        #expect(stop.whileHandling)
        #expect(await rig.parked.sawTaskCancelled)
    }

    @Test(
        "with both a deadline and a timeout, the earlier one is the send's deadline",
        arguments: [
            (deadline: Duration.seconds(10), timeout: Duration.seconds(30), ends: Duration.seconds(10)),
            (deadline: .seconds(60), timeout: .seconds(20), ends: .seconds(20)),
        ])
    func earlierOfDeadlineAndTimeoutWins(deadline: Duration, timeout: Duration, ends: Duration) async throws {
        let rig = Rig()
        await rig.clock.advance(by: .seconds(100))
        let send = try await rig.parkedSend(
            SendOptions(deadline: rig.system.now + deadline, timeout: timeout))
        let end = Self.at(.seconds(100) + ends)
        #expect(rig.clock.nextDeadline == end)

        await rig.clock.advance(to: end)

        #expect(await send.value.kind == .timedOut)
        #expect(rig.system.now == end)
    }

    @Test("a handler reads the send's deadline and the time left on the system's clock")
    func timeLeftReadsTheSystemsClock() async throws {
        let clock = ManualClock(now: Self.at(.seconds(100)))
        let system = EventSystem(clock: clock)
        let readings = Locked<[String]>([])
        let leaf = ScriptedResponder(
            "leaf",
            ScriptedResponder.Script([
                .perform { _, context in
                    readings.withLock {
                        $0.append("\(context.deadline.map(String.init(describing:)) ?? "none")")
                    }
                    readings.withLock {
                        $0.append("\(context.timeLeft.map(String.init(describing:)) ?? "none")")
                    }
                }
            ]), root: true, system: system)

        #expect(await leaf.send(Order(), options: SendOptions(timeout: .seconds(30))).kind == .handled)
        await clock.advance(by: .seconds(5))
        #expect(
            await leaf.send(Order(), options: SendOptions(deadline: system.now + .seconds(20))).kind
                == .handled)
        #expect(await leaf.send(Order()).kind == .handled)

        #expect(
            readings.withLock { $0 } == [
                "130.0 seconds", "30.0 seconds", "125.0 seconds", "20.0 seconds", "none", "none",
            ])
        #expect(clock.pendingTimerCount == 0)
    }

    @Test(
        "a post's timeout counts its time in the queue on the system's clock",
        arguments: [
            (queued: Duration.seconds(10), ends: Outcome.Kind.timedOut),
            (.seconds(10) - .milliseconds(1), .handled),
        ])
    func postTimeoutCountsQueueTime(queued: Duration, ends: Outcome.Kind) async throws {
        let rig = Rig()
        let quick = ScriptedResponder("quick", .handle, parent: rig.parked, system: rig.system)
        // The first post parks the lane; the second waits behind it.
        let first = await quick.post(Order(), options: SendOptions(start: .atNext))
        try await rig.gate.waitForArrivals(1)
        let second = await quick.post(Order(), options: SendOptions(timeout: .seconds(10)))

        // No timer runs while the post is queued: its deadline was fixed when it was posted.
        await rig.clock.advance(by: queued)
        #expect(rig.clock.pendingTimerCount == 0)
        rig.gate.open()

        #expect(await first.outcome.kind == .handled)
        let outcome = await second.outcome
        #expect(outcome.kind == ends)
        if ends == .timedOut {
            let stop = try #require(outcome.timedOutDetails)
            #expect(stop.hop == 1)
            #expect(!stop.whileHandling)
        }
    }

    @Test(
        "a handler that relays the event with its context's deadline gives the relayed send the same deadline"
    )
    func relayCarriesTheDeadline() async throws {
        let rig = Rig()
        let seen = Locked<[EventSystem.Instant?]>([])
        let back = ScriptedResponder(
            "back",
            ScriptedResponder.Script([
                .perform { _, context in seen.withLock { $0.append(context.deadline) } }, .park(rig.gate),
            ]), root: true, system: rig.system)
        let relayed = Locked<[Outcome]>([])
        let front = ScriptedResponder(
            "front",
            ScriptedResponder.Script([
                .perform { event, context in
                    let outcome = await back.send(event, options: SendOptions(deadline: context.deadline))
                    relayed.withLock { $0.append(outcome) }
                }
            ]), root: true, system: rig.system)

        let send = Task { await front.send(Order(), options: SendOptions(timeout: .seconds(30))) }
        try await rig.gate.waitForArrivals(1)
        try await rig.clock.waitForTimers(2)
        #expect(rig.clock.pendingTimers.map(\.deadline) == [Self.at(.seconds(30)), Self.at(.seconds(30))])
        #expect(seen.withLock { $0 } == [Self.at(.seconds(30))])

        await rig.clock.advance(by: .seconds(30))

        #expect(relayed.withLock { $0.map(\.kind) } == [.timedOut])
        #expect(await send.value.kind == .timedOut)
    }
}

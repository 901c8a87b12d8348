import Foundation
import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

/// The deadlines run in virtual time, on a test store: a test moves the clock past a deadline
/// only once the send is where the test wants it (a handler parked, a post queued), `advance`
/// returns once the send it stopped has ended, and `finish()` fails a test that leaves an
/// outcome, a dead letter or a timer behind. The stop regressions run on a manual clock; only the
/// race at the end runs on the real clock, on purpose.
@Suite("Deadlines", .timeLimit(.minutes(5)))
struct DeadlineTests {
    @Test("a deadline that passes while a handler is parked ends the send timed out there")
    func deadlineWhileParked() async throws {
        // The gate is never opened: only the deadline can end the wait.
        let store = TestStore()
        let (gate, top, parked, leaf) = F.parkedChain(in: store.system)

        async let sent = store.send(
            F.Numbered(sender: 0, number: 0), from: leaf, options: SendOptions(timeout: .seconds(1)))
        try await gate.waitForArrivals(1)  // parked at hop 2
        await store.advance(by: .seconds(1) - .nanoseconds(1))
        #expect(store.clock.pendingTimerCount == 1)  // not yet: the deadline is still ahead
        await store.advance(by: .nanoseconds(1))  // returns once the send has ended
        let outcome = await sent

        let stop = try #require(outcome.timedOutDetails)
        #expect(stop.responder == ResponderID(parked))
        #expect(stop.hop == 2)
        #expect(stop.whileHandling)
        #expect(await parked.sawTaskCancelled)
        #expect(await parked.sawContextCancelled)
        #expect(await top.seen.isEmpty)
        await store.finish()  // and no timer is left
    }

    @Test(
        "a stored timeout starts with each send: a send made after an earlier one timed out gets its own time"
    )
    func storedTimeoutStartsPerSend() async throws {
        // The gate is never opened: the first send can only end by timing out.
        let store = TestStore()
        let (gate, _, parked) = F.parkedRoot("parked", in: store.system)
        let quick = F.Node("quick", .handle, root: true, system: store.system)
        let options = SendOptions(timeout: .seconds(1))

        async let sent = store.send(F.Numbered(sender: 0, number: 0), from: parked, options: options)
        try await gate.waitForArrivals(1)
        await store.advance(by: .seconds(1))
        let first = await sent
        // The first send ended by its timeout, so the moment the options were made is now a
        // timeout ago: a deadline fixed then would stop this send before its first hop.
        let second = await store.send(F.Numbered(sender: 0, number: 1), from: quick, options: options)
        let posted = await quick.post(F.Numbered(sender: 0, number: 2), options: options)

        #expect(first.kind == .timedOut)
        #expect(second.kind == .handled)
        #expect(await store.receiveOutcome(of: posted)?.kind == .handled)
        #expect(options.deadline == nil && options.timeout == .seconds(1))
        await store.finish()
    }

    @Test(
        "with both a deadline and a timeout, the earlier one stops the send",
        arguments: [(deadline: 5, timeout: 10), (deadline: 10, timeout: 5)])
    func earlierOfDeadlineAndTimeout(seconds: (deadline: Int, timeout: Int)) async throws {
        let store = TestStore()
        let (gate, _, parked) = F.parkedRoot("parked", in: store.system)
        let options = SendOptions(
            deadline: store.system.now + .seconds(seconds.deadline), timeout: .seconds(seconds.timeout))

        async let sent = store.send(F.Numbered(sender: 0, number: 0), from: parked, options: options)
        try await gate.waitForArrivals(1)
        #expect(store.clock.nextDeadline == EventSystem.Instant(offset: .seconds(5)))
        await store.advance(by: .seconds(5))

        let stop = try #require(await sent.timedOutDetails)
        #expect(stop.hop == 1)
        #expect(stop.whileHandling)
        await store.finish()
    }

    @Test("a deadline that has already passed stops the send before its first hop")
    func deadlinePassedBeforeFirstHop() async throws {
        let store = TestStore()
        let leaf = F.Node("leaf", .handle, root: true, system: store.system)
        await store.advance(by: .seconds(10))
        let outcome = await store.send(
            F.Numbered(sender: 0, number: 0), from: leaf,
            options: SendOptions(deadline: store.system.now - .seconds(1)))
        let stop = try #require(outcome.timedOutDetails)
        #expect(stop.hop == 1)
        #expect(!stop.whileHandling)
        #expect(await leaf.seen.isEmpty)
        await store.finish()  // no timer for a deadline already passed
    }

    @Test("a posted event whose deadline passed while it was queued ends timed out before hop 1")
    func postedDeadlineCountsQueueTime() async throws {
        let store = TestStore()
        let (gate, _, parked) = F.parkedRoot("parked", in: store.system)
        let first = await parked.post(F.Numbered(sender: 0, number: 0))
        let late = await parked.post(
            F.Numbered(sender: 0, number: 1), options: SendOptions(timeout: .seconds(1)))
        try await gate.waitForArrivals(1)
        await store.advance(by: .seconds(1))  // while the post waits behind the first
        gate.open()

        #expect(await store.receiveOutcome(of: first)?.kind == .handled)
        // A post that ends other than handled is dead-lettered: that asserts its ending.
        let letter = try #require(await store.receiveDeadLetter(.timedOut))
        #expect(letter.outcome.eventID == late.eventID)
        let stop = try #require(letter.outcome.timedOutDetails)
        #expect(stop.hop == 1)
        #expect(!stop.whileHandling)
        #expect(await parked.seen.map(\.number) == [0])
        await store.finish()
    }

    @Test("a deadline that is met changes nothing")
    func deadlineMet() async {
        let store = TestStore()
        let leaf = F.Node("leaf", .handle, system: store.system)
        let outcome = await store.send(
            F.Numbered(sender: 0, number: 0), from: leaf, options: SendOptions(timeout: .seconds(60)))
        #expect(outcome.kind == .handled)
        await store.finish()  // its timer went with it
    }

    // MARK: Regressions: a stop during a hop wins over what the hop then does

    /// What each of these regressions starts from: a gate that is never opened, so that only the
    /// stop wakes what waits at it, and a system of its own, on a manual clock (a deadline passes
    /// once the hop under test has begun), whose dead letters are recorded.
    private struct StopRig {
        let gate = Gate()
        let letters = DeadLetterRecorder()
        let clock = ManualClock()
        let system: EventSystem

        init() { system = EventSystem(deadLetters: letters.sink, clock: clock) }
    }

    @Test(
        "a stop during a hop whose handler ignores it and returns handled ends the send stopped there, not handled",
        arguments: F.StopCause.allCases)
    func stopWinsOverHandled(cause: ConcurrencyFixtures.StopCause) async throws {
        let rig = StopRig()
        let top = F.Scripted("top", .handle, root: true, system: rig.system)
        let parked = F.Scripted(
            "parked", F.Script([.parkIgnoringStop(rig.gate)], then: .handled), parent: top, system: rig.system
        )
        let leaf = F.Scripted("leaf", .pass, parent: parked, system: rig.system)

        let stop = try await stopAtHop2(of: parked, by: cause, sentFrom: leaf, in: rig)
        #expect(stop.whileHandling)
        #expect(await top.log.isEmpty)
    }

    @Test(
        "a stop during a root's hop whose handler then passes ends the send stopped, not unhandled, and sends no dead letter",
        arguments: F.StopCause.allCases)
    func stopWinsOverUnhandled(cause: ConcurrencyFixtures.StopCause) async throws {
        let rig = StopRig()
        let root = F.Scripted(
            "root", F.Script([.parkIgnoringStop(rig.gate)], then: .pass), root: true, system: rig.system)
        let leaf = F.Scripted("leaf", .pass, parent: root, system: rig.system)

        let stop = try await stopAtHop2(of: root, by: cause, sentFrom: leaf, in: rig)
        #expect(stop.whileHandling)
        #expect(rig.letters.outcomes.map(\.kind) == [])
    }

    @Test(
        "a stop while a responder's next is being read, which then gives nil, ends the send stopped, not interrupted, and sends no dead letter",
        arguments: F.StopCause.allCases)
    func stopWinsOverInterrupted(cause: ConcurrencyFixtures.StopCause) async throws {
        let rig = StopRig()
        // Not a root, and its `next` is nil once read: a broken chain, were the send not stopped.
        let broken = F.Scripted("broken", .pass, system: rig.system, nextGate: rig.gate)
        let leaf = F.Scripted("leaf", .pass, parent: broken, system: rig.system)

        _ = try await stopAtHop2(of: broken, by: cause, sentFrom: leaf, in: rig)
        #expect(rig.letters.outcomes.map(\.kind) == [])
    }

    /// Sends event 0 from `leaf`, stops it by `cause` once the rig's gate has had one arrival
    /// (a deadline: by advancing the rig's clock past it then), and returns the stop, having
    /// checked that the send ended as `cause` says, stopped at `responder`'s hop, the second.
    private func stopAtHop2(
        of responder: F.Node, by cause: F.StopCause, sentFrom leaf: F.Node, in rig: StopRig
    ) async throws -> Outcome.Stop {
        let gate = rig.gate
        let outcome = try await cause.run(F.Numbered(sender: 0, number: 0), from: leaf, clock: rig.clock) {
            try await gate.waitForArrivals(1)
        }

        #expect(gate.arrivals == 1)
        #expect(outcome.kind == cause.kind)
        let stop = try #require(cause.details(outcome))
        #expect(stop.responder == ResponderID(responder))
        #expect(stop.hop == 2)
        return stop
    }

    // MARK: Regressions: a deadline is reported as a deadline

    @Test(
        "sends and posts stopped by nothing but their deadline end timed out, never cancelled",
        .timeLimit(.minutes(5)))
    func deadlineIsNeverReportedAsCancellation() async {
        // 50,000; more or fewer where the environment says.
        let total = F.stressSize("RESPONDERCHAIN_DEADLINE_RACE_SENDS", standard: 50_000)
        let workers = max(2, ProcessInfo.processInfo.activeProcessorCount)  // one sending task per core
        let counts = await withTaskGroup(of: [Outcome.Kind: Int].self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let system = EventSystem()
                    // Each hop yields once and passes: the cheapest hop that suspends.
                    let yieldOnce = F.Script([.yield(1)], then: .pass)
                    let top = F.Node("top", yieldOnce, root: true, system: system)
                    let middle = F.Node("middle", yieldOnce, parent: top, system: system)
                    let leaf = F.Node("leaf", yieldOnce, parent: middle, system: system)
                    var random = F.SplitMix(seed: UInt64(worker + 1))
                    var counts: [Outcome.Kind: Int] = [:]
                    for index in stride(from: worker, to: total, by: workers) {
                        let event = F.Numbered(sender: worker, number: index)
                        let options = SendOptions(
                            deadline: EventSystem.default.now + Self.raceDeadline(&random))
                        let outcome =
                            index % 4 == 3
                            ? await leaf.post(event, options: options).outcome
                            : await leaf.send(event, options: options)
                        counts[outcome.kind, default: 0] += 1
                    }
                    return counts
                }
            }
            return await group.reduce(into: [:]) { total, counts in total.merge(counts, uniquingKeysWith: +) }
        }

        #expect(counts.values.reduce(0, +) == total)
        #expect(counts[.cancelled, default: 0] == 0, "outcomes: \(counts)")
        #expect(counts[.timedOut, default: 0] > 0)
    }

    /// A deadline between 1 µs and 100 µs from now: in a debug build, most of them pass while the
    /// route is running (around its stop checks), where the race between the clock and the
    /// deadline timer is.
    private static func raceDeadline(_ random: inout F.SplitMix) -> Duration {
        .microseconds(1 + Int(random.next() % 100))
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

/// An order of the seeded scenario: what its handler does is its kind.
struct Order: Event {
    enum Kind: CaseIterable, Sendable {
        case handled, failing, slow
    }

    let number: Int
    let kind: Kind

    var traceName: String { "Order \(number)" }
}

@Suite("Test store: determinism and virtual time", .timeLimit(.minutes(1)))
struct TestStoreDeterminismTests {
    @Test("one seeded scenario run 1,000 times gives the same trace every time")
    func sameSeedSameTrace() async {
        let first = await Self.scenario(seed: 42)
        var differing = 0
        var firstDifference: [String]?
        for _ in 1..<1_000 {
            let trace = await Self.scenario(seed: 42)
            guard trace != first else { continue }
            differing += 1
            firstDifference = firstDifference ?? trace
        }

        #expect(differing == 0, "first: \(first)\ndiffering: \(firstDifference ?? [])")
        #expect(first.count > 10)
        #expect(first.contains { $0.hasPrefix("at 30.0 seconds: the deadline of Order") })
        #expect(await Self.scenario(seed: 7) != first)
    }

    @Test(
        "a 24-hour schedule of deadlines, retries and a shutdown's grace period runs in virtual time, in milliseconds"
    )
    func dayOfTimers() async throws {
        let store = TestStore()
        let posts = 100
        var random = SplitMix64(seed: 24)
        let clock = store.clock
        for number in 0..<posts {
            // One sender each: 100 lanes, each delivering one post whose handler sleeps past its
            // deadline, somewhere in the day.
            let sender = Probe(
                "Sender \(number)",
                Script([.perform { _, _ in try await clock.sleep(for: .seconds(25 * 3_600)) }]),
                root: true, system: store.system)
            let timeout = Duration.seconds(Int.random(in: 60..<(24 * 3_600), using: &random))
            await sender.post(Order(number: number, kind: .slow), options: SendOptions(timeout: timeout))
        }
        // A retry every hour, each scheduled by the one before (as a backoff's timers are).
        let retries = RetryCount()
        retries.scheduleNext(on: store.system.timers)
        await store.shutDown(gracePeriod: .seconds(24 * 3_600))
        await store.waitForTimers(2 * posts + 2)

        // Reads the real clock to measure how long the day takes: the test itself, not the
        // library, and only to measure.
        let wallClock = ContinuousClock()
        let started = wallClock.now
        let fired = await store.run()
        let elapsed = wallClock.now - started

        #expect(fired >= posts + 24)
        #expect(retries.count == 24)
        #expect(store.clock.now >= EventSystem.Instant(offset: .seconds(24 * 3_600)))
        await store.receiveShutdownReport(
            EventSystem.ShutdownReport(finished: posts, endedEarly: 0, refused: 0))
        for _ in 0..<posts { await store.receiveDeadLetter(.timedOut) }
        await store.finish()
        // Virtual time: 24 hours of timers in seconds at most. A debug build takes about 30 ms
        // alone; the bound is far above that (the rest of the test run, a sanitizer, or another
        // build share the two cores: one CI run measured 538 ms), and still catches a schedule
        // that waits for real time or a cost that grows with it. The cost itself is measured by
        // the benchmarks, not here.
        #if DEBUG
            let bound = Duration.seconds(5)
        #else
            let bound = Duration.seconds(1)
        #endif
        #expect(elapsed < bound, "a 24-hour schedule of \(fired) timers took \(elapsed)")
    }

    /// A seeded run of sends and posts on one lane: handled, failing and slow orders (the slow
    /// ones time out in virtual time), then a shutdown. Returns the store's trace.
    static func scenario(seed: UInt64) async -> [String] {
        var random = SplitMix64(seed: seed)
        let store = TestStore()
        let clock = store.clock
        let orders = Probe("Orders", root: true, system: store.system) { event in
            switch (event as? Order)?.kind {
            case .failing: .fail(PricingError.outOfStock)
            case .slow: Script([.perform { _, _ in try await clock.sleep(for: .seconds(60)) }])
            case .handled, nil: .handle
            }
        }
        // Each kind once, in a seeded order, then a seeded number of seeded kinds.
        let kinds =
            Order.Kind.allCases.shuffled(using: &random)
            + (0..<Int.random(in: 0...4, using: &random)).map { _ in
                Order.Kind.allCases.randomElement(using: &random)!
            }
        for (number, kind) in kinds.enumerated() {
            let order = Order(number: number, kind: kind)
            switch order.kind {
            case .handled where Bool.random(using: &random):
                await store.send(order, from: orders)
            case .handled:
                await store.receiveOutcome(of: await orders.post(order))
            case .failing:
                await orders.post(order)
                await store.receiveDeadLetter(.failed)
            case .slow:
                await orders.post(order, options: SendOptions(timeout: .seconds(30)))
                await store.waitForTimers(2)
                await store.advance(by: .seconds(30))
                await store.receiveDeadLetter(.timedOut)
            }
        }
        await store.shutDown(gracePeriod: .seconds(5))
        await store.receiveShutdownReport()
        await store.finish()
        return await store.trace
    }
}

/// Hourly retries: each timer schedules the next, 24 in all.
final class RetryCount: Sendable {
    private let fired = Locked(0)

    var count: Int { fired.withLock { $0 } }

    func scheduleNext(on timers: any TimerScheduler) {
        _ = timers.schedule(at: timers.now + .seconds(3_600), for: .other("a retry")) { [self] in
            let count = fired.withLock { count in
                count += 1
                return count
            }
            if count < 24 { scheduleNext(on: timers) }
        }
    }
}

private typealias Script = ScriptedResponder.Script

import CoreMetrics
import MetricsTestKit
import ResponderChain
@testable import ResponderChainMetrics
import ResponderChainTesting
import Testing

@Suite("Metrics tracer (swift-metrics)", .timeLimit(.minutes(1)))
struct MetricsTracerTests {
    let names = MetricNames()

    @Test("every finished send counts once under its outcome kind; dead letters count without a sink")
    func outcomesPerKind() async throws {
        let metrics = TestMetrics()
        let tracer = MetricsTracer(factory: metrics)
        let gate = Gate()
        let system = EventSystem(
            tracer: tracer, postingLimit: EventSystem.PostingLimit(maxOutstanding: 1, whenFull: .reject))

        let top = ScriptedResponder("Top", .handle, root: true, system: system)
        let leaf = ScriptedResponder("Leaf", parent: top, system: system)
        let quietRoot = ScriptedResponder("QuietRoot", root: true, system: system)
        let orphan = ScriptedResponder("Orphan", system: system)
        let loop = ScriptedResponder("Loop", system: system)
        await loop.link(to: loop)  // a one-responder cycle
        let failing = ScriptedResponder("Failing", .fail(Boom()), system: system)
        let parked = ScriptedResponder("Parked", .park(gate), root: true, system: system)

        var outcomes: [Outcome] = []
        for _ in 0..<3 { outcomes.append(await leaf.send(Probe())) }
        for _ in 0..<2 { outcomes.append(await quietRoot.send(Probe())) }
        outcomes.append(await orphan.send(Probe()))
        outcomes.append(await loop.send(Probe()))
        outcomes.append(await failing.send(Probe()))
        outcomes.append(await leaf.send(Probe(), options: SendOptions(deadline: system.now - .seconds(1))))
        let cancelled = Task {
            await waitForCancellation()
            return await leaf.send(Probe())
        }
        cancelled.cancel()
        outcomes.append(await cancelled.value)
        // A post parked in its handler fills the system; the next post is rejected.
        let held = await parked.post(Probe())
        try await gate.waitForArrivals(1)
        outcomes.append(await (parked.post(Probe())).outcome)
        gate.open()
        outcomes.append(await held.outcome)

        #expect(
            outcomes.map(\.kind) == [
                .handled, .handled, .handled, .unhandled, .unhandled, .interrupted, .cycleDetected,
                .failed, .timedOut, .cancelled, .rejected, .handled,
            ])
        let expected: [Outcome.Kind: Int64] = [
            .handled: 4, .unhandled: 2, .interrupted: 1, .cycleDetected: 1, .failed: 1, .timedOut: 1,
            .cancelled: 1, .rejected: 1,
        ]
        for kind in Outcome.Kind.allCases {
            let counter = try metrics.expectCounter(names.outcomes, [("kind", kind.rawValue)])
            #expect(counter.totalValue == expected[kind], "\(kind)")
        }
        #expect(metrics.counterTotal(label: names.outcomes) == 12)
        // Unhandled, interrupted and rejected go to dead letters; no sink is installed.
        #expect(try metrics.expectCounter(names.deadLetters).totalValue == 4)
        #expect(try metrics.expectTimer(names.sendDuration).values.count == 12)
        #expect(tracer.unfinishedSends == 0)
    }

    @Test("a dead letter counts once with a sink installed too")
    func deadLettersWithSink() async throws {
        let metrics = TestMetrics()
        let recorder = DeadLetterRecorder()
        let system = EventSystem(tracer: MetricsTracer(factory: metrics), deadLetters: recorder.sink)
        let root = ScriptedResponder("Root", root: true, system: system)
        let handler = ScriptedResponder("Handler", .handle, root: true, system: system)

        #expect(await root.send(Probe()).kind == .unhandled)
        #expect(await handler.send(Probe()).kind == .handled)

        #expect(recorder.outcomes.count == 1)
        #expect(try metrics.expectCounter(names.deadLetters).totalValue == 1)
    }

    @Test("each hop records its handlers' duration once, under its responder's label, beside another tracer")
    func hopTimerPerResponder() async throws {
        let metrics = TestMetrics()
        let recording = RecordingTracer()
        let tracer = MetricsTracer(dimensions: [("chain", "checkout")], factory: metrics)
        let system = EventSystem(tracer: MultiplexTracer([tracer, recording]))
        let top = ScriptedResponder("Top", .handle, root: true, system: system)
        let middle = ScriptedResponder("Middle", parent: top, system: system)
        let leaf = ScriptedResponder("Leaf", parent: middle, system: system)

        let outcome = await leaf.send(Probe())
        _ = await middle.send(Probe())

        #expect(outcome.kind == .handled)
        let timers = metrics.timers(label: names.hopDuration)
        #expect(
            Set(timers.map { $0.dimensions.map { "\($0.0)=\($0.1)" } }) == [
                ["chain=checkout", "responder=Leaf"], ["chain=checkout", "responder=Middle"],
                ["chain=checkout", "responder=Top"],
            ])
        func values(_ responder: String) throws -> [Int64] {
            try metrics.expectTimer(names.hopDuration, [("chain", "checkout"), ("responder", responder)])
                .values
        }
        #expect(try values("Leaf").count == 1)
        #expect(try values("Middle").count == 2)
        #expect(try values("Top").count == 2)
        // The values are the hop records' durations, to the nanosecond.
        let first = recording.hops(for: outcome.eventID)
        #expect(try values("Leaf") == [first[0].duration.nanoseconds])
        #expect(try values("Middle").first == first[1].duration.nanoseconds)
        #expect(try values("Top").first == first[2].duration.nanoseconds)
        // The send timer times the whole send: at least its hops.
        let sends = try metrics.expectTimer(names.sendDuration, [("chain", "checkout")]).values
        #expect(sends.count == 2)
        #expect(sends[0] >= first.map { $0.duration.nanoseconds }.reduce(0, +))
        // Every metric carries the fixed dimension.
        #expect(
            try metrics.expectCounter(names.outcomes, [("chain", "checkout"), ("kind", "handled")]).totalValue
                == 2)
    }

    @Test("beyond the limit of responder labels, hops fold into responder=\"other\"; unlabelled and off")
    func cardinalityCap() async throws {
        let metrics = TestMetrics()
        let system = EventSystem(tracer: MetricsTracer(hopTimers: .perResponder(limit: 2), factory: metrics))
        let d = ScriptedResponder("D", .handle, root: true, system: system)
        let c = ScriptedResponder("C", parent: d, system: system)
        let b = ScriptedResponder("B", parent: c, system: system)
        let a = ScriptedResponder("A", parent: b, system: system)

        _ = await a.send(Probe())
        _ = await a.send(Probe())

        func values(_ responder: String) throws -> [Int64] {
            try metrics.expectTimer(names.hopDuration, [("responder", responder)]).values
        }
        #expect(metrics.timers(label: names.hopDuration).count == 3)
        #expect(try values("A").count == 2)
        #expect(try values("B").count == 2)
        #expect(try values("other").count == 4)  // C and D, twice each
        #expect(throws: (any Error).self) { try values("C") }

        let unlabelled = TestMetrics()
        let single = ScriptedResponder(
            "Single", .handle, parent: nil, root: true,
            system: EventSystem(tracer: MetricsTracer(hopTimers: .unlabelled, factory: unlabelled)))
        let under = ScriptedResponder("Under", parent: single, system: single.eventSystem)
        _ = await under.send(Probe())
        #expect(unlabelled.timers(label: names.hopDuration).count == 1)
        #expect(try unlabelled.expectTimer(names.hopDuration).values.count == 2)

        let off = TestMetrics()
        let quiet = ScriptedResponder(
            "Quiet", .handle, root: true,
            system: EventSystem(tracer: MetricsTracer(hopTimers: .off, timesSends: false, factory: off)))
        #expect(await quiet.send(Probe()).kind == .handled)
        #expect(off.timers(label: names.hopDuration).isEmpty)
        #expect(off.timers(label: names.sendDuration).isEmpty)
        #expect(try off.expectCounter(names.outcomes, [("kind", "handled")]).totalValue == 1)
    }

    @Test("labels first seen concurrently still get at most `limit` timers, and every hop is timed once")
    func concurrentCardinalityCap() async throws {
        let metrics = TestMetrics()
        let system = EventSystem(tracer: MetricsTracer(hopTimers: .perResponder(limit: 4), factory: metrics))
        let roots = (0..<12).map { ScriptedResponder("Root\($0 % 6)", .handle, root: true, system: system) }

        await withTaskGroup(of: Void.self) { group in
            for root in roots {
                group.addTask {
                    for _ in 0..<20 { _ = await root.send(Probe()) }
                }
            }
        }

        let timers = metrics.timers(label: names.hopDuration)
        let labels = timers.compactMap { $0.dimensions.first { $0.0 == "responder" }?.1 }
        #expect(timers.count == 5)
        #expect(Set(labels).count == 5)
        #expect(labels.contains("other"))
        #expect(timers.map(\.values.count).reduce(0, +) == 240)
        // A label that got a timer keeps all its hops (two stations share each label).
        #expect(
            timers.filter { $0.dimensions.contains { $0 == ("responder", "other") } == false }.allSatisfy {
                $0.values.count == 40
            })
    }

    @Test("a posted event's wait in its queue is timed; an awaited send's is not")
    func queuedTimer() async throws {
        let metrics = TestMetrics()
        let system = EventSystem(tracer: MetricsTracer(factory: metrics))
        let root = ScriptedResponder("Root", .handle, root: true, system: system)

        _ = await root.send(Probe())
        #expect(try metrics.expectTimer(names.queuedDuration).values.isEmpty)
        let ticket = await root.post(Probe())
        #expect(await ticket.outcome.kind == .handled)
        #expect(try metrics.expectTimer(names.queuedDuration).values.count == 1)
        #expect(try metrics.expectTimer(names.sendDuration).values.count == 2)
    }

    @Test("a send is timed on the clock the tracer is given: two seconds of a manual clock read two seconds")
    func sendTimerReadsTheGivenClock() async throws {
        let metrics = TestMetrics()
        let clock = ManualClock()
        let gate = Gate()
        let system = EventSystem(tracer: MetricsTracer(clock: clock, factory: metrics), clock: clock)
        let parked = ScriptedResponder("Parked", .park(gate), root: true, system: system)

        let ticket = await parked.post(Probe())
        try await gate.waitForArrivals(1)
        await clock.advance(by: .seconds(2))
        gate.open()
        #expect(await ticket.outcome.kind == .handled)

        #expect(try metrics.expectTimer(names.sendDuration).values == [2_000_000_000])
    }

    @Test("concurrent sends are each counted and timed once, and leave no start time behind")
    func concurrentSends() async throws {
        let metrics = TestMetrics()
        let tracer = MetricsTracer(factory: metrics)
        let system = EventSystem(tracer: tracer)
        let top = ScriptedResponder("Top", .handle, root: true, system: system)
        let leaves = (0..<8).map { _ in ScriptedResponder("Leaf", parent: top, system: system) }

        await withTaskGroup(of: Void.self) { group in
            for leaf in leaves {
                group.addTask {
                    for _ in 0..<50 { _ = await leaf.send(Probe()) }
                }
            }
        }

        #expect(try metrics.expectCounter(names.outcomes, [("kind", "handled")]).totalValue == 400)
        #expect(try metrics.expectTimer(names.sendDuration).values.count == 400)
        #expect(try metrics.expectTimer(names.hopDuration, [("responder", "Leaf")]).values.count == 400)
        #expect(tracer.unfinishedSends == 0)
    }

    @Test("a custom prefix renames every metric")
    func prefix() async throws {
        let metrics = TestMetrics()
        let custom = MetricNames(prefix: "ui_events")
        let system = EventSystem(tracer: MetricsTracer(names: custom, factory: metrics))
        _ = await ScriptedResponder("Root", root: true, system: system).send(Probe())

        #expect(
            try metrics.expectCounter("ui_events_outcomes_total", [("kind", "unhandled")]).totalValue == 1)
        #expect(try metrics.expectCounter("ui_events_dead_letters_total").totalValue == 1)
        #expect(
            try metrics.expectTimer("ui_events_hop_duration_seconds", [("responder", "Root")]).values.count
                == 1)
        #expect(metrics.counters(label: names.outcomes).isEmpty)
    }
}

@Suite("Posting gauges (swift-metrics)", .timeLimit(.minutes(1)))
struct PostingGaugesTests {
    let names = MetricNames()

    @Test("the gauges show the posts a gate holds, the posters waiting for room, and the peak")
    func gaugesFollowPosts() async throws {
        let metrics = TestMetrics()
        let gate = Gate()
        let system = EventSystem(
            postingLimit: EventSystem.PostingLimit(maxOutstanding: 2, whenFull: .suspend))
        let gauges = PostingGauges(system: system, dimensions: [("chain", "checkout")], factory: metrics)
        let parked = ScriptedResponder("Parked", .park(gate), root: true, system: system)
        func gauge(_ label: String) throws -> Double? {
            try metrics.expectGauge(label, [("chain", "checkout")]).lastValue
        }

        gauges.update()
        #expect(try gauge(names.outstandingPosts) == 0)
        #expect(try gauge(names.suspendedPosters) == 0)

        let first = await parked.post(Probe())
        let second = await parked.post(Probe())
        try await gate.waitForArrivals(1)
        let third = Task { await parked.post(Probe()) }
        try await waitUntil("one poster waits for room") { system.suspendedPosters == 1 }
        gauges.update()
        #expect(try gauge(names.outstandingPosts) == 2)
        #expect(try gauge(names.suspendedPosters) == 1)
        #expect(try gauge(names.peakOutstandingPosts) == 2)

        gate.open()
        #expect(await first.outcome.kind == .handled)
        #expect(await second.outcome.kind == .handled)
        #expect(await third.value.outcome.kind == .handled)
        gauges.update()
        #expect(try gauge(names.outstandingPosts) == 0)
        #expect(try gauge(names.suspendedPosters) == 0)
        #expect(try gauge(names.peakOutstandingPosts) == 2)
    }

    @Test("run(every:) sleeps on the system's clock: each hour a manual clock advances samples once more")
    func runOnTheSystemsClock() async throws {
        let metrics = TestMetrics()
        let clock = ManualClock()
        let system = EventSystem(clock: clock)
        let gauges = PostingGauges(system: system, factory: metrics)

        let sampling = Task { await gauges.run(every: .seconds(3_600)) }
        try await clock.waitForTimers(1)  // sampled once, then asleep for an hour of the clock
        #expect(try metrics.expectGauge(names.outstandingPosts).values == [0])
        for samples in 2...4 {
            await clock.advance(by: .seconds(3_600))
            try await clock.waitForTimers(1)  // sampled again, and asleep again
            #expect(try metrics.expectGauge(names.outstandingPosts).values.count == samples)
        }
        sampling.cancel()
        await sampling.value
        #expect(clock.pendingTimerCount == 0)
    }

    @Test("run(every:) updates the gauges and returns when its task is cancelled", .timeLimit(.minutes(1)))
    func runUntilCancelled() async throws {
        let metrics = TestMetrics()
        let gate = Gate()
        let system = EventSystem()
        let gauges = PostingGauges(system: system, factory: metrics)
        let parked = ScriptedResponder("Parked", .park(gate), root: true, system: system)
        let held = await parked.post(Probe())
        try await gate.waitForArrivals(1)

        let sampling = Task {
            await waitForCancellation()
            await gauges.run(every: .seconds(3600))
        }
        sampling.cancel()
        await sampling.value  // returns although the interval is an hour

        #expect(try metrics.expectGauge(names.outstandingPosts).values == [1])
        gate.open()
        #expect(await held.outcome.kind == .handled)
    }
}

import ResponderChain
import ResponderChainTesting

/// Scenario 13: retries and redrive.
///
/// - **A day of retries in virtual time**: 1,000 posts whose handler always throws, on a manual
///   clock, with a policy of ten attempts from 5 min doubling to a 6 h cap (about a day from the
///   first attempt to the last): the wall time from the first retry's timer to the last
///   outcome, 9,000 retries in all. Target: under 50 ms.
/// - **Redrive at a rate**: dead letters of an in-memory store sent again at 500 a second on the
///   real clock: the time per letter against the rate's 2 ms. Target: within ± 10 %.
///
/// (The cost of a policy that never triggers is scenario 4's row beside the plain posts.)
struct Retries: Scenario {
    let id = "retries"
    let title = "13 retries and redrive"

    func run(_ measurer: Measurer) async -> [Row] {
        let repetitions = measurer.options.quick ? 1 : 5
        var days: [Double] = []
        for _ in 0..<repetitions { days.append(await Self.dayOfRetries(posts: 1_000)) }
        var bareDays: [Double] = []
        for _ in 0..<repetitions { bareDays.append(await BareRetryDay.run(jobs: 1_000, attempts: 10)) }
        let letters = measurer.options.quick ? 100 : 1_000
        var redrives: [Double] = []
        for _ in 0..<repetitions { redrives.append(await Self.redrive(letters: letters, perSecond: 500)) }
        let redrive = Sample(redrives)
        let nominal = 1e9 / 500
        return [
            Row(
                id: id,
                scenario: "\(title): a day of retries, 1,000 posts × 10 attempts, virtual time (per run)",
                depth: nil, hops: 1, library: Sample(days), baseline: Sample(bareDays),
                target: .nanosecondsPerHopAtMost(50e6),
                note: "13: one row is the whole run: 9,000 retries, each at the policy's instant; "
                    + "the baseline is the same schedule on a hand-written virtual clock (BareRetryDay)"),
            Row(
                id: id, scenario: "\(title): redrive of \(letters) dead letters at 500/s (per letter)",
                depth: nil,
                hops: 1, library: redrive, baseline: Sample(median: nominal, min: nominal, max: nominal),
                target: .ratioAtMost(1.1), metOverride: (0.9...1.1).contains(redrive.median / nominal),
                note: "13: the baseline column is the rate's own interval (2 ms); met within ± 10 %"),
        ]
    }

    /// The wall time, in nanoseconds, of a day of retries of `posts` failing posts on a manual clock.
    ///
    /// Nonisolated, unlike the scenario: a post is delivered on its poster's isolation, and
    /// posted from the main actor each retry would hop on and off the main thread.
    nonisolated static func dayOfRetries(posts count: Int) async -> Double {
        let clock = ManualClock()
        let policy = EventSystem.RetryPolicy(
            maximumAttempts: 10, initialBackoff: .seconds(300), maximumBackoff: .seconds(21_600), seed: 13)
        let system = EventSystem(clock: clock, retryPolicies: EventSystem.RetryPolicies(standard: policy))
        let desk = FailingDesk(system: system)
        var tickets: [Ticket] = []
        for number in 0..<count {
            tickets.append(
                await desk.post(Probe(a: number, b: 0, c: 0), key: EventSystem.OrderingKey("k\(number)")))
        }
        try? await clock.waitForTimers(count)
        let start = ContinuousClock.now
        await clock.run()
        for ticket in tickets { _ = await ticket.outcome }
        let elapsed = ContinuousClock.now - start
        await system.shutDown(gracePeriod: .zero)
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }

    /// The wall time per letter, in nanoseconds, of a redrive of `count` dead letters at
    /// `rate` a second, on the real clock.
    static func redrive(letters count: Int, perSecond rate: Int) async -> Double {
        let store = EventSystem.InMemoryPostStore()
        let ids = (0..<count).map { _ in EventID() }
        _ = try? await store.store(
            ids.map {
                EventSystem.StoredPost(
                    id: $0, key: "k", entry: "desk", payload: .event(Probe(a: 0, b: 0, c: 0)))
            })
        try? await store.finish(
            ids.map {
                .init(id: $0, outcome: .init(kind: .failed, description: "down"), deadLettered: true)
            })
        let system = EventSystem(storage: .store(store))
        let desk = ScriptedResponder("desk", .init(then: .handled), root: true, system: system)
        try? system.register(desk, as: "desk")
        let start = ContinuousClock.now
        let sent = (try? await system.redriveDeadLetters(perSecond: rate)) ?? 0
        let elapsed = ContinuousClock.now - start
        await system.shutDown(gracePeriod: .seconds(10))
        let (seconds, attoseconds) = elapsed.components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(max(1, sent))
    }
}

/// The desk of the retry scenario: every probe fails. (Not the test kit's scripted responder,
/// which records every event it sees: the row measures the retries, not the recording.)
actor FailingDesk: Responder {
    nonisolated let system: EventSystem

    init(system: EventSystem) {
        self.system = system
    }

    nonisolated var eventSystem: EventSystem { system }
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    nonisolated static let strategies = Strategies<FailingDesk> {
        $0.on(Probe.self) { _, _, _ in throw RetryBenchFailure() }
    }
}

/// What the retry scenario's handler throws.
private struct RetryBenchFailure: Error {}

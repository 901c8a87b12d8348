public import ResponderChain
public import Testing

extension TestStore {
    /// Moves the store's clock `duration` forward, firing every timer that falls due on the way
    /// in deadline order, and returns once the work each started has settled (a timed-out send
    /// has ended, its outcome recorded). See ``ManualClock/advance(by:)``.
    public nonisolated(nonsending) func advance(by duration: Duration) async {
        await advance(to: clock.now + duration)
    }

    /// Moves the store's clock to `instant` (never backwards), firing the timers due by then.
    public nonisolated(nonsending) func advance(to instant: EventSystem.Instant) async {
        while await fireNext(by: instant) {}
        await clock.advance(to: instant)
    }

    /// Fires the first timer due by `instant`, if any, notes it in the trace, and returns once
    /// what it started is recorded; returns whether one fired.
    private nonisolated(nonsending) func fireNext(by instant: EventSystem.Instant) async -> Bool {
        guard let (deadline, purpose) = await clock.fireNext(by: instant) else { return false }
        await recorder.note("at \(deadline): \(purpose)")
        if case .deadline(let id, _) = purpose { await waitForEnding(of: id) }
        return true
    }

    /// Returns once the store has recorded the ending of the send or post `id`: the clock's
    /// timer returns once the send has published its outcome, and the store's recorder reads it
    /// from the system's outcome stream a few steps later. Bounded by ``waitLimit``; returns at
    /// once when the system has shut down (nothing is recorded then).
    private nonisolated(nonsending) func waitForEnding(of id: EventID) async {
        let recorder = recorder
        // Mostly ended already, or a few steps of its task away: look a few times first (see
        // `quickLooks`), then wait for a signal.
        for _ in 0..<Self.quickLooks {
            if await recorder.hasEnded(id) { return }
            await Task.yield()
        }
        try? await waitUntil(
            "the send \(id) has ended after its deadline", within: waitLimit,
            on: system.observeOutcomes(buffering: .keepingNewest(1))
        ) { await recorder.hasEnded(id) }
    }

    /// Advances the store's clock to each next timer until none is scheduled (timers scheduled by
    /// the ones that fire included), or until `limit` timers have fired. Returns how many fired.
    @discardableResult
    public nonisolated(nonsending) func run(limit: Int = .max) async -> Int {
        var fired = 0
        while fired < limit, let next = clock.nextDeadline {
            if await fireNext(by: next) { fired += 1 }
        }
        return fired
    }

    /// Returns once at least `count` timers are scheduled on the store's clock: the step between
    /// starting work that schedules a timer (a send with a timeout, a handler that sleeps) and
    /// advancing past it. Records an issue, naming the timers scheduled, when they are not within
    /// `limit` (real time; the store's ``waitLimit`` when `nil`).
    public nonisolated(nonsending) func waitForTimers(
        _ count: Int,
        within limit: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await clock.waitForTimers(count, within: limit ?? waitLimit)
        } catch {
            Issue.record(
                "\(error); \(TestStore.describeTimers(clock.pendingTimers))", sourceLocation: sourceLocation)
        }
    }

    /// `2 timers still scheduled: the deadline of PlaceOrder (event #3) at 30.0 seconds; a sleep at 1.0 seconds`.
    static func describeTimers(_ timers: [(deadline: EventSystem.Instant, purpose: String)]) -> String {
        guard !timers.isEmpty else { return "no timer scheduled" }
        return "\(TestStoreNaming.count(timers.count, "timer")) still scheduled: "
            + timers.map { "\($0.purpose) at \($0.deadline)" }.joined(separator: "; ")
    }
}

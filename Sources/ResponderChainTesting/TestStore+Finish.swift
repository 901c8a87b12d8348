import ResponderChain
public import Testing

extension TestStore {
    /// Ends the test's use of the store: records an issue for each kind of thing the test did not
    /// assert or left under way, naming each one.
    ///
    /// ```swift
    /// await store.finish()
    /// // 1 dead letter not asserted: PlaceOrder, failed at Pricing (PricingError.outOfStock)
    /// // 1 timer still scheduled: the deadline of PlaceOrder (event #12) at 30.0 seconds
    /// ```
    ///
    /// It checks, each kind in its own issue:
    /// - the dead letters no receive or store send asserted;
    /// - the other outcomes none asserted (an ending that went to dead letters is named once, as
    ///   a dead letter);
    /// - the report of a shutdown ``shutDown(gracePeriod:sourceLocation:)`` began, not asserted, or not come;
    /// - the timers still scheduled on ``clock``, with their deadlines and purposes;
    /// - the posts still outstanding (queued or being delivered), and the posters waiting for
    ///   room;
    /// - the elements left unread in the streams opened through ``observeOutcomes(buffering:)``
    ///   and ``observeDeadLetters(buffering:)``.
    ///
    /// It does not move the clock unless asked: with `runningClock`, it first runs it until no
    /// timer is left (``run(limit:)``), so that what they start ends, and is then checked like
    /// the rest. Without, a timer left is a thing the test forgot.
    ///
    /// With ``exhaustivity`` ``Exhaustivity/off``, it records nothing (or, with
    /// `showSkippedAssertions`, known issues). Call it once, at the end of the test.
    ///
    /// - Parameters:
    ///   - runningClock: Whether to run the clock until no timer is left first; `false` by default.
    ///   - sourceLocation: Where the issues point; leave the default.
    public nonisolated(nonsending) func finish(
        runningClock: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let first = state.withLock { state -> Bool in
            defer { state.isFinished = true }
            return !state.isFinished
        }
        guard first else {
            Issue.record("finish() was called twice on one store", sourceLocation: sourceLocation)
            return
        }
        if runningClock { await run() }
        await settleEndings()
        let problems = await leftovers()
        await recorder.note(
            "finished: \(problems.isEmpty ? "nothing left" : problems.joined(separator: " | "))")
        switch exhaustivity {
        case .on:
            for problem in problems {
                Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
            }
        case .off(showSkippedAssertions: true):
            for problem in problems {
                withKnownIssue("skipped by exhaustivity .off") {
                    Issue.record(Comment(rawValue: problem), sourceLocation: sourceLocation)
                }
            }
        case .off(showSkippedAssertions: false):
            break
        }
    }

    /// What `finish` fails for, one line per kind, in the order it checks them.
    nonisolated(nonsending) func leftovers() async -> [String] {
        var problems: [String] = []
        let left = await recorder.unasserted()
        let deadLetters = left.filter { $0.deadLetter != nil }
        if !deadLetters.isEmpty {
            problems.append(
                "\(TestStoreNaming.count(deadLetters.count, "dead letter")) not asserted: "
                    + deadLetters.map { TestStoreNaming.name($0.event, $0.outcome) }.joined(separator: "; "))
        }
        let outcomes = left.filter { $0.deadLetter == nil }
        if !outcomes.isEmpty {
            problems.append(
                "\(TestStoreNaming.count(outcomes.count, "outcome")) not asserted: "
                    + outcomes.map { TestStoreNaming.name($0.event, $0.outcome) }.joined(separator: "; "))
        }
        let dropped = await recorder.droppedCount
        if dropped > 0 {
            problems.append(
                "\(TestStoreNaming.count(dropped, "ending")) not recorded: the store's streams were full")
        }
        if let begun = state.withLock({ $0.shutdown }), !begun.isAsserted, begun.report == nil,
            system.outstandingPosts == 0
        {
            // No post is left to wait for: the drain is ending on its own, at once.
            try? await begun.returned.pass(within: waitLimit)
        }
        if let shutdown = state.withLock({ $0.shutdown }), !shutdown.isAsserted {
            if let report = shutdown.report {
                problems.append("1 shutdown report not asserted: \(report)")
            } else {
                problems.append(
                    "1 shutdown has not returned: its grace period of \(shutdown.gracePeriod) waits for the clock"
                )
            }
        }
        let timers = clock.pendingTimers
        if !timers.isEmpty { problems.append(TestStore.describeTimers(timers)) }
        let outstanding = system.outstandingPosts
        if outstanding > 0 {
            problems.append("\(TestStoreNaming.count(outstanding, "post")) still queued or being delivered")
        }
        let suspended = system.suspendedPosters
        if suspended > 0 {
            problems.append("\(TestStoreNaming.count(suspended, "poster")) still waiting for room")
        }
        let (outcomeStreams, deadLetterStreams) = state.withLock { ($0.outcomeStreams, $0.deadLetterStreams) }
        var unread: [String] = []
        for stream in outcomeStreams {
            unread += await TestStore.drain(stream).map { "outcome \($0)" }
        }
        for stream in deadLetterStreams {
            unread += await TestStore.drain(stream).map {
                "dead letter \(TestStoreNaming.name($0.event, $0.outcome))"
            }
        }
        if !unread.isEmpty {
            problems.append(
                "\(TestStoreNaming.count(unread.count, "observation element")) not read: "
                    + unread.joined(separator: "; "))
        }
        return problems
    }

    /// The elements `stream` holds unread, read out of it.
    private static func drain<Element>(_ stream: ObservationStream<Element>) async -> [Element] {
        var elements: [Element] = []
        var iterator = stream.makeAsyncIterator()
        while stream._unreadCount > 0, let element = await iterator.next() { elements.append(element) }
        return elements
    }
}

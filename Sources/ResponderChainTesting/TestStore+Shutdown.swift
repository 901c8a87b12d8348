public import ResponderChain
public import Testing

extension TestStore {
    /// Begins shutting the store's system down (`EventSystem.shutDown(gracePeriod:)`) in a task
    /// of the store's, and returns once the shutdown has begun and waits for its grace period
    /// (posts are outstanding), or has returned (none was): move the clock past the grace
    /// period, then assert the report with ``receiveShutdownReport(_:within:sourceLocation:)``.
    ///
    /// Once the shutdown has returned, the system's observation streams have finished: the store
    /// records nothing the system does after that (a post refused then is not seen).
    ///
    /// ```swift
    /// await store.shutDown(gracePeriod: .seconds(5))
    /// await store.advance(by: .seconds(5))
    /// await store.receiveShutdownReport(EventSystem.ShutdownReport(finished: 1, endedEarly: 1, refused: 0))
    /// ```
    ///
    /// A store begins one shutdown; a second call records an issue.
    public nonisolated(nonsending) func shutDown(
        gracePeriod: Duration,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let returned = Gate()
        let begun = state.withLock { state -> Bool in
            guard state.shutdown == nil else { return false }
            state.shutdown = TestStoreShutdown(gracePeriod: gracePeriod, returned: returned)
            return true
        }
        guard begun else {
            Issue.record("the store's system is already shutting down", sourceLocation: sourceLocation)
            return
        }
        // The posts whose endings the test has seen are no longer outstanding for the shutdown.
        await settleEndings()
        await recorder.note("shutting down with a grace period of \(gracePeriod)")
        Task { [self] in
            let report = await system.shutDown(gracePeriod: gracePeriod)
            state.withLock { $0.shutdown?.report = report }
            returned.open()
        }
        let gracePeriodTimer = TimerPurpose.gracePeriod.description
        do {
            // The drain schedules its grace period in a task of its own; polled, since nothing
            // reports it (bounded, and it comes at once).
            try await waitUntil("the shutdown waits for its grace period or has returned", within: waitLimit)
            {
                returned.isOpen
                    || (system.outstandingPosts > 0
                        && clock.pendingTimers.contains { $0.purpose == gracePeriodTimer })
            }
        } catch {
            Issue.record("\(error)", sourceLocation: sourceLocation)
        }
    }

    /// Asserts the report of the shutdown ``shutDown(gracePeriod:sourceLocation:)`` began, waiting for the
    /// shutdown to return if it has not (bounded in real time), and returns it.
    ///
    /// Records an issue when no shutdown was begun, or when it does not return within `limit`
    /// (its grace period waits for the clock: advance it first).
    ///
    /// - Parameters:
    ///   - limit: How long to wait at most; the store's ``waitLimit`` when `nil`.
    ///   - sourceLocation: Where an issue points; leave the default.
    @discardableResult
    public nonisolated(nonsending) func receiveShutdownReport(
        within limit: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> EventSystem.ShutdownReport? {
        guard let returned = state.withLock({ $0.shutdown?.returned }) else {
            Issue.record(
                "expected a shutdown report, but the store began no shutdown (shutDown(gracePeriod:))",
                sourceLocation: sourceLocation)
            return nil
        }
        let limit = limit ?? waitLimit
        do {
            try await returned.pass(within: limit)
        } catch {
            Issue.record(
                "expected a shutdown report, but the shutdown did not return within \(limit): \(TestStore.describeTimers(clock.pendingTimers)), \(TestStoreNaming.count(system.outstandingPosts, "post")) outstanding",
                sourceLocation: sourceLocation)
            return nil
        }
        let report = state.withLock { state -> EventSystem.ShutdownReport? in
            state.shutdown?.isAsserted = true
            return state.shutdown?.report
        }
        if let report { await recorder.note("shutdown report: \(report)") }
        return report
    }

    /// Asserts that the report of the shutdown ``shutDown(gracePeriod:sourceLocation:)`` began is `expected`,
    /// waiting for the shutdown to return if it has not (bounded in real time).
    ///
    /// ```swift
    /// await store.receiveShutdownReport(EventSystem.ShutdownReport(finished: 2, endedEarly: 1, refused: 0))
    /// ```
    public nonisolated(nonsending) func receiveShutdownReport(
        _ expected: EventSystem.ShutdownReport,
        within limit: Duration? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        guard let report = await receiveShutdownReport(within: limit, sourceLocation: sourceLocation) else {
            return
        }
        if report != expected {
            Issue.record(
                "expected the shutdown report \(expected), got \(report)", sourceLocation: sourceLocation)
        }
    }
}

extension EventSystem {
    /// A stream of every send's and every post's outcome through this system, from now on.
    ///
    /// Each send (awaited, posted or relayed) that uses this system appears once, when it ends,
    /// with its event and source: handled or not, failed, cancelled, timed out, rejected. The
    /// element is in the stream by the time the send returns its outcome (or the post's ticket
    /// has it), after the dead-letter sink has taken it. A slow consumer never slows routing:
    /// see ``ObservationBuffering`` for what a full buffer drops.
    ///
    /// ```swift
    /// let outcomes = system.observeOutcomes()
    /// await cart.send(ItemAdded(sku: "A-1"))
    /// for await finished in outcomes {
    ///     print(finished.outcome.kind)   // handled
    ///     break
    /// }
    /// ```
    ///
    /// The stream finishes once ``shutDown(gracePeriod:)`` has returned (see
    /// ``ObservationStream``). Awaited sends made through the system after that are not observed.
    public func observeOutcomes(buffering: ObservationBuffering = .default) -> ObservationStream<FinishedSend>
    {
        ObservationStream(registry: observers.outcomes, buffering: buffering)
    }

    /// A stream of the dead letters of this system's sends and posts, from now on: every outcome
    /// that goes to dead letters (``Outcome/goesToDeadLetters``), whichever sink took it, and
    /// also when no sink is installed.
    ///
    /// ```swift
    /// let deadLetters = system.observeDeadLetters(buffering: .keepingOldest(10_000))
    /// ```
    ///
    /// Buffering, ordering and the end are as for ``observeOutcomes(buffering:)``.
    public func observeDeadLetters(buffering: ObservationBuffering = .default) -> ObservationStream<
        DeadLetter
    > {
        ObservationStream(registry: observers.deadLetters, buffering: buffering)
    }

    /// The number of observation streams open on this system, outcomes and dead letters
    /// together. A clear-box entry point for tests.
    public var _openObservationStreams: Int {
        observers.outcomes.count + observers.deadLetters.count
    }
}

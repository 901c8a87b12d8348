extension EventSystem {
    /// A stream of every send's and every post's outcome through this system, from now on.
    ///
    /// Each send (awaited, posted or relayed) that uses this system appears once, when it ends,
    /// with its event and source: handled or not, failed, cancelled, timed out, rejected. The
    /// element is in the stream by the time the send returns its outcome (or the post's ticket
    /// has it), after the dead-letter sink has taken it. A slow consumer never slows routing:
    /// see ``ObservationStream/Buffering`` for what a full buffer drops.
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
    public func observeOutcomes(
        buffering: ObservationStream<FinishedSend>.Buffering = .default
    ) -> ObservationStream<FinishedSend> {
        ObservationStream(registry: observers.outcomes, buffering: buffering)
    }

    /// A stream of the dead letters of this system's sends and posts, from now on: every outcome
    /// that goes to dead letters (``Outcome/goesToDeadLetters``; for a post, every outcome but
    /// handled, except one its own ticket cancelled), whichever sink took it, and also when no
    /// sink is installed. Each appears once, as the sink receives it.
    ///
    /// ```swift
    /// let deadLetters = system.observeDeadLetters(buffering: .keepingOldest(10_000))
    /// ```
    ///
    /// Buffering, ordering and the end are as for ``observeOutcomes(buffering:)``.
    public func observeDeadLetters(
        buffering: ObservationStream<DeadLetter>.Buffering = .default
    ) -> ObservationStream<DeadLetter> {
        ObservationStream(registry: observers.deadLetters, buffering: buffering)
    }

    /// The number of observation streams open on this system, outcomes and dead letters
    /// together. A clear-box entry point for tests.
    public var _openObservationStreams: Int {
        observers.outcomes.count + observers.deadLetters.count
    }

    /// One send or post that finished, as an outcome stream delivers it
    /// (``EventSystem/observeOutcomes(buffering:)``): the event, who sent it, and how it ended.
    ///
    /// ```swift
    /// for await finished in system.observeOutcomes() {
    ///     if !finished.outcome.isHandled {
    ///         audit.append("\(finished.event.traceName) from \(finished.source): \(finished.outcome)")
    ///     }
    /// }
    /// ```
    public struct FinishedSend: Sendable, CustomStringConvertible {
        /// The event, as it was sent (decorations added on the way are in the outcome's path info).
        public let event: any Event
        /// Who sent it: a responder, or a relay.
        public let source: EventSource
        /// How it ended.
        public let outcome: Outcome

        /// A finished send of `event` from `source` that ended in `outcome`.
        public init(event: any Event, source: EventSource, outcome: Outcome) {
            self.event = event
            self.source = source
            self.outcome = outcome
        }

        /// `#12 ItemAdded from LineItem: handled by Cart after 2 hops`.
        public var description: String {
            "\(outcome.eventID) \(event.traceName) from \(source): \(outcome)"
        }
    }
}

/// The observation streams of one event system: its outcome streams and its dead-letter streams.
/// The system's post office closes them once its shutdown has finished.
struct EventObservers: Sendable {
    /// Every send's ending.
    let outcomes = ObserverRegistry<EventSystem.FinishedSend>()
    /// The endings that go to dead letters.
    let deadLetters = ObserverRegistry<DeadLetter>()

    init() {}

    /// Finishes every stream and opens only finished ones from now on: the system has shut down.
    func close() {
        outcomes.close()
        deadLetters.close()
    }
}

/// An event that reached no one who could take it, as a ``DeadLetter/Sink`` receives it: nobody
/// handled it, its chain broke, it was refused, or a shutdown ended it; or a posted event that
/// ended any way but handled (see ``Outcome/goesToDeadLetters``).
public struct DeadLetter: Sendable {
    /// The event as its sender sent it.
    public let event: any Event
    /// Who sent it: a responder's send or post, or a ``Relay``.
    public let source: EventSource
    /// The outcome: for an awaited send, ``Outcome/unhandled(_:)``, ``Outcome/interrupted(_:)``,
    /// ``Outcome/rejected(_:)`` (a full posting limit with the reject policy, a poster cancelled
    /// while waiting, a system shutting down), or ``Outcome/cancelled(_:)`` with reason
    /// ``Outcome/Stop/Reason/shutdown``. For a posted event, any outcome but
    /// ``Outcome/handled(_:)``: also ``Outcome/failed(_:)``, ``Outcome/timedOut(_:)``,
    /// ``Outcome/cycleDetected(_:)``, and ``Outcome/cancelled(_:)`` with reason
    /// ``Outcome/Stop/Reason/ticketCancelled`` when its ticket was abandoned
    /// (``Ticket/abandon()``); not a post its own ticket's ``Ticket/cancel()`` ended.
    public let outcome: Outcome
    /// The attempts before the one ``outcome`` reports, oldest first, when a
    /// ``EventSystem/RetryPolicy`` tried the event again; empty when it was tried once
    /// (``outcome``'s ``Outcome/Path/attempts`` counts them all).
    public let earlierAttempts: [Attempt]

    /// A dead letter of `event`, sent by `source`, that ended with `outcome` after
    /// `earlierAttempts`.
    public init(event: any Event, source: EventSource, outcome: Outcome, earlierAttempts: [Attempt] = []) {
        self.event = event
        self.source = source
        self.outcome = outcome
        self.earlierAttempts = earlierAttempts
    }

    /// One attempt at delivering an event that was tried again: how it ended, and when.
    public struct Attempt: Sendable {
        /// Its number, from 1.
        public let number: Int
        /// How it ended.
        public let outcome: Outcome
        /// When it ended, on the event system's clock.
        public let endedAt: EventSystem.Instant

        /// Attempt `number`, which ended with `outcome` at `endedAt`.
        public init(number: Int, outcome: Outcome, endedAt: EventSystem.Instant) {
            self.number = number
            self.outcome = outcome
            self.endedAt = endedAt
        }
    }
}

extension DeadLetter {
    /// Where unhandled, interrupted and rejected events go, and every post that ends other than
    /// handled (but for one its own ticket cancelled), so that none disappears silently.
    ///
    /// Install one on an ``EventSystem`` (for a whole chain) or in ``SendOptions`` (for one send).
    /// The send awaits the sink before it returns its outcome.
    ///
    /// ```swift
    /// let system = EventSystem(deadLetters: DeadLetter.Sink { letter in
    ///     print("dead letter: \(letter.event.traceName) — \(letter.outcome)")
    /// })
    /// ```
    public struct Sink: Sendable {
        private let receive: @Sendable (DeadLetter) async -> Void

        /// A sink that runs `receive` for each dead letter.
        public init(_ receive: @escaping @Sendable (DeadLetter) async -> Void) {
            self.receive = receive
        }

        /// Delivers one dead letter.
        public nonisolated(nonsending) func deliver(_ letter: DeadLetter) async {
            await receive(letter)
        }
    }
}

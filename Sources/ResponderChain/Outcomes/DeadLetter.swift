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

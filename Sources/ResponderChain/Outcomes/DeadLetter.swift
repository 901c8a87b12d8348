/// An event that nobody handled, or whose chain broke, as a ``DeadLetterSink`` receives it.
public struct DeadLetter: Sendable {
    /// The event.
    public let event: any Event
    /// Who sent it.
    public let source: EventSource
    /// The outcome: ``Outcome/unhandled(_:)`` or ``Outcome/interrupted(_:)``.
    public let outcome: Outcome
}

/// Where unhandled and interrupted events go, so that none disappears silently.
///
/// Install one on an ``EventSystem`` (for a whole chain) or in ``SendOptions`` (for one send).
/// The send awaits the sink before it returns its outcome.
///
/// ```swift
/// let system = EventSystem(deadLetters: DeadLetterSink { letter in
///     logger.warning("dead letter: \(letter.event.traceName) — \(letter.outcome)")
/// })
/// ```
public struct DeadLetterSink: Sendable {
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

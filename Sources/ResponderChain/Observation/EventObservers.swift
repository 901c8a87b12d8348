/// The observation streams open on one event system: its outcome streams and its dead-letter
/// streams (see ``EventSystem/observeOutcomes(buffering:)``).
final class EventObservers: Sendable {
    /// Every send's ending.
    let outcomes = ObserverRegistry<FinishedSend>()
    /// The endings that go to dead letters.
    let deadLetters = ObserverRegistry<DeadLetter>()

    init() {}

    /// Finishes every stream and opens only finished ones from now on: the system has shut down.
    func close() {
        outcomes.close()
        deadLetters.close()
    }
}

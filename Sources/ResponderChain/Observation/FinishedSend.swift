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

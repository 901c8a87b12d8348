/// A point event reported to a ``Tracer``.
///
/// One send reports, in this order: ``sent(_:)``; ``hopEntered(_:)`` and ``hopLeft(_:)`` for each
/// hop; ``deadLettered(_:)`` when the event was given to a dead-letter sink; and ``finished(_:)``,
/// exactly once, last. The outcome in ``finished(_:)`` says how the send ended — handled,
/// unhandled, interrupted, cycle detected, cancelled, timed out, or failed:
///
/// ```swift
/// func record(_ event: TraceEvent) {
///     switch event {
///     case .finished(.interrupted(let broken)): alert("chain broke after \(broken.lastReached)")
///     case .finished(.failed(let failure)):     log(failure.error)
///     default:                                  break
///     }
/// }
/// ```
public enum TraceEvent: Sendable, CustomStringConvertible {
    /// A send began: the first event of every send.
    case sent(Sent)
    /// A hop began: the system reached a responder and is about to run its handlers (outside the
    /// tracer's scope, which opens next).
    case hopEntered(Hop)
    /// A hop ended: its decision or error, the information it added, its duration. Reported
    /// after the tracer's scope closed, before the system reads the responder's `next`.
    case hopLeft(Hop.Record)
    /// An unhandled or interrupted event was given to the dead-letter sink (reported after the
    /// sink returned).
    case deadLettered(Outcome)
    /// The send ended with this outcome: the last event of every send.
    case finished(Outcome)

    /// The details of ``TraceEvent/sent(_:)``.
    public struct Sent: Sendable {
        /// The send's correlation identifier.
        public let eventID: EventID
        /// The event's ``Event/traceName``.
        public let eventName: String
        /// Who sent it.
        public let source: EventSource
        /// For a posted event, the time between posting and the start of delivery; `nil` for an
        /// awaited send.
        public let queued: Duration?

        /// The details of a send (for tests of your own tracers).
        public init(eventID: EventID, eventName: String, source: EventSource, queued: Duration?) {
            self.eventID = eventID
            self.eventName = eventName
            self.source = source
            self.queued = queued
        }
    }

    /// The correlation identifier of the send this event belongs to.
    public var eventID: EventID {
        switch self {
        case .sent(let sent): return sent.eventID
        case .hopEntered(let hop): return hop.eventID
        case .hopLeft(let record): return record.hop.eventID
        case .deadLettered(let outcome), .finished(let outcome): return outcome.eventID
        }
    }

    /// One line, e.g. `#12 hop 2 Order (actor): handled`.
    public var description: String {
        switch self {
        case .sent(let sent): return "\(sent.eventID) sent \(sent.eventName) from \(sent.source)"
        case .hopEntered(let hop): return "\(hop) entered"
        case .hopLeft(let record): return record.description
        case .deadLettered(let outcome): return "\(outcome.eventID) dead-lettered: \(outcome)"
        case .finished(let outcome): return "\(outcome.eventID) finished: \(outcome)"
        }
    }
}

/// One hop of one event, as tracers see it: which event, which hop, which responder, and where
/// its handlers run.
public struct Hop: Hashable, Sendable, CustomStringConvertible {
    /// The send's correlation identifier.
    public let eventID: EventID
    /// The hop's number: 1 at the first responder visited.
    public let number: Int
    /// The responder visited.
    public let responder: ResponderID
    /// The event's ``Event/traceName``.
    public let eventName: String
    /// Where the responder's handlers run.
    public let isolation: Hop.Isolation
    /// The pass the hop belongs to: ``EventContext/Phase/capture`` for a capture handler's hop.
    public let phase: EventContext.Phase

    /// A hop (for tests of your own tracers).
    public init(
        eventID: EventID, number: Int, responder: ResponderID, eventName: String,
        isolation: Hop.Isolation, phase: EventContext.Phase = .bubble
    ) {
        self.eventID = eventID
        self.number = number
        self.responder = responder
        self.eventName = eventName
        self.isolation = isolation
        self.phase = phase
    }

    /// `#12 hop 2 Order (actor)`, or `#12 capture hop 1 Window (MainActor)`.
    public var description: String { "\(eventID) \(phase.hopName) \(number) \(responder) (\(isolation))" }
}

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
    public let isolation: HopIsolation

    /// A hop (for tests of your own tracers).
    public init(
        eventID: EventID, number: Int, responder: ResponderID, eventName: String,
        isolation: HopIsolation
    ) {
        self.eventID = eventID
        self.number = number
        self.responder = responder
        self.eventName = eventName
        self.isolation = isolation
    }

    /// `#12 hop 2 Order (actor)`.
    public var description: String { "\(eventID) hop \(number) \(responder) (\(isolation))" }
}

extension Hop {
    /// The hop a ``ScopingTracer/withHop(_:_:)`` wraps, and what the tracer captured when the event
    /// was sent (see the example there).
    public struct Scope<Context: Sendable>: Sendable {
        /// The hop: event, number, responder, isolation.
        public let hop: Hop
        /// What ``ScopingTracer/captureContext()`` returned in the sender's task when the event was
        /// sent or posted; `nil` if it captured nothing (always, for a `Hop.Scope<Never>`).
        public let context: Context?

        /// A scope for `hop` (for tests of your own tracers).
        public init(hop: Hop, context: Context?) {
            self.hop = hop
            self.context = context
        }

        /// The send's correlation identifier.
        public var eventID: EventID { hop.eventID }
        /// The hop's number: 1 at the first responder.
        public var number: Int { hop.number }
        /// The responder being visited.
        public var responder: ResponderID { hop.responder }
    }
}

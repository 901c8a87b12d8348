extension Hop {
    /// What one hop did, reported by ``TraceEvent/hopLeft(_:)``: the handlers' decision or error, the
    /// information they added, and the time they took.
    public struct Record: Sendable, CustomStringConvertible {
        /// Which hop: its event, number, responder and isolation.
        public let hop: Hop
        /// What the responder's handlers returned, or the error one threw. A scope that never ran
        /// the handlers shows here as a ``ResponderChainError``.
        public let result: Result<Disposition, any Error>
        /// The information this hop added or replaced, sorted by key name.
        public let added: [Hop.AddedInfo]
        /// The time the handlers took, measured on the event system's clock around them (inside the
        /// tracer's scope, which is not included). Zero when they never ran.
        public let duration: Duration

        /// A record (for tests of your own tracers).
        public init(
            hop: Hop, result: Result<Disposition, any Error>, added: [Hop.AddedInfo], duration: Duration
        ) {
            self.hop = hop
            self.result = result
            self.added = added
            self.duration = duration
        }

        /// The handlers' decision, or `nil` if one threw.
        public var disposition: Disposition? {
            if case .success(let disposition) = result { return disposition }
            return nil
        }

        /// The error a handler threw, or `nil`.
        public var error: (any Error)? {
            if case .failure(let error) = result { return error }
            return nil
        }

        /// The other chain's outcome, when the hop handed the event to another chain (its handler
        /// returned ``Disposition/forwarded(_:)``); `nil` otherwise.
        public var forwardedOutcome: Outcome? {
            disposition?.forwardedOutcome
        }

        /// The decision, or `threw` and the error, or where the event went on: `handledAndContinue`,
        /// `threw Timeout()`, `forwarded: handled by OrderService after 2 hops`.
        public var resultDescription: String {
            switch result {
            case .success(let disposition): return disposition.description
            case .failure(let error): return "threw \(error)"
            }
        }

        /// `#12 hop 2 Order (actor): handledAndContinue +[OrderID=42]`.
        public var description: String {
            let outcome = resultDescription
            let info = added.isEmpty ? "" : " +[\(added.map(\.description).joined(separator: ", "))]"
            return "\(hop): \(outcome)\(info)"
        }
    }
}

extension EventSystem {
    /// What a store keeps of a finished post's outcome: its kind and its description, readable
    /// by the post's identifier after a restart (``EventSystem/storedOutcome(of:)``).
    ///
    /// An ``Outcome`` names responders and errors that live in one process; what survives the
    /// process is what it says.
    ///
    /// ```swift
    /// if let outcome = try await system.storedOutcome(of: id), outcome.kind == .handled { … }
    /// ```
    public struct StoredOutcome: Hashable, Sendable, CustomStringConvertible {
        /// The outcome's kind: handled, unhandled, failed, …
        public let kind: Outcome.Kind
        /// The outcome's description, as ``Outcome/description`` printed it.
        public let description: String

        /// A stored outcome of `kind`, described by `description`.
        public init(kind: Outcome.Kind, description: String) {
            self.kind = kind
            self.description = description
        }

        /// What a store keeps of `outcome`.
        public init(_ outcome: Outcome) {
            self.init(kind: outcome.kind, description: outcome.description)
        }
    }
}

extension NamedEvent {
    /// The name of a dynamic event (see ``NamedEvent``).
    ///
    /// Declare the names you use once, as static members, so that a typo is a compile error rather
    /// than an event nobody handles:
    ///
    /// ```swift
    /// extension NamedEvent.Name {
    ///     static let addToCart: NamedEvent.Name = "addToCart"
    /// }
    /// ```
    public struct Name: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name as text.
        public let rawValue: String

        /// Creates a name from text.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        /// Creates a name from a string literal.
        public init(stringLiteral value: String) {
            self.rawValue = value
        }

        /// The name as text.
        public var description: String { rawValue }
    }
}

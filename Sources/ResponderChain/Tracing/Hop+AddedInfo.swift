extension Hop {
    /// One piece of information a hop added (or replaced), as traces print it.
    public struct AddedInfo: Hashable, Sendable, CustomStringConvertible {
        /// The key's ``InfoKey/name``.
        public let name: String
        /// The value, as `String(describing:)` prints it.
        public let value: String

        /// `OrderID=42`.
        public var description: String { "\(name)=\(value)" }
    }
}

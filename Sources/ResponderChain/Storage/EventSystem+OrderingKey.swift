extension EventSystem {
    /// Which posts are delivered one at a time, in post order: posts with the same key never run
    /// at the same time and run in the order they were posted; posts with different keys run
    /// concurrently.
    ///
    /// A post names its key with ``Responder/post(_:key:idempotencyKey:options:)``; without one,
    /// its key is its sender (each responder's posts form one lane, as a system has always
    /// delivered them). A key is a name because it must mean the same after a restart: an order
    /// number, a customer, an aggregate's identifier.
    ///
    /// ```swift
    /// await desk.post(OrderPlaced(id: "o-17"), key: "order-o-17")
    /// await desk.post(OrderPaid(id: "o-17"), key: "order-o-17")    // after OrderPlaced ends
    /// await desk.post(OrderPlaced(id: "o-18"), key: "order-o-18")  // alongside both
    /// ```
    public struct OrderingKey: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The key's name.
        public let name: String

        /// The key called `name`.
        public init(_ name: String) {
            self.name = name
        }

        /// The key called `value`.
        public init(stringLiteral value: String) {
            self.name = value
        }

        /// The name.
        public var description: String { name }
    }
}

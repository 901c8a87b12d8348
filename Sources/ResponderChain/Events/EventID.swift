import Synchronization

/// The correlation identifier of one send: the same at every hop of that event, different for
/// every send in the process.
///
/// Tracers use it to tie the records of one event together, also across posted (queued) delivery.
public struct EventID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The raw value; identifiers increase in the order sends begin.
    public let rawValue: UInt64

    /// Creates an identifier from a raw value (for tests and adapters).
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    /// A new identifier (for a post a store's outbox writes, say).
    public init() {
        self = .next()
    }

    private static let counter = Atomic<UInt64>(0)

    /// A new identifier, unique within this process.
    static func next() -> EventID {
        EventID(rawValue: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// Orders identifiers by the moment their sends began.
    public static func < (lhs: EventID, rhs: EventID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// `#42`.
    public var description: String { "#\(rawValue)" }
}

/// How many elements an observation stream holds for a consumer that has not read them yet, and
/// which it drops when it is full.
///
/// Routing never waits for an observer: a send hands its outcome to every stream and goes on. A
/// consumer slower than the sends falls behind by at most `capacity` elements; past that, the
/// stream drops elements and counts them (``ObservationStream/droppedCount``).
///
/// An unread element holds its event and its source, and a source holds the responder that sent
/// it: a stream nobody reads keeps up to `capacity` senders alive. Size the buffer for how far
/// behind a consumer may fall, not larger.
///
/// ```swift
/// // A dashboard: the latest 100 outcomes are what matter.
/// let recent = system.observeOutcomes(buffering: .keepingNewest(100))
/// // An audit that must notice a gap rather than skip silently past it.
/// let audit = system.observeDeadLetters(buffering: .keepingOldest(10_000))
/// ```
public struct ObservationBuffering: Hashable, Sendable, CustomStringConvertible {
    /// Which element a full stream gives up.
    public enum Policy: Hashable, Sendable {
        /// Drop the oldest unread element to make room for the new one: the consumer sees the
        /// most recent `capacity` elements.
        case dropOldest
        /// Drop the new element: the consumer sees the first `capacity` elements it has not read,
        /// then, once it catches up, whatever comes next.
        case dropNewest
    }

    /// The most unread elements the stream holds. At least 1.
    public let capacity: Int
    /// What the stream drops when it holds `capacity` unread elements and another arrives.
    public let policy: Policy

    /// Holds up to `capacity` unread elements; when full, drops the oldest of them.
    ///
    /// - Precondition: `capacity` is at least 1.
    public static func keepingNewest(_ capacity: Int) -> ObservationBuffering {
        ObservationBuffering(capacity: capacity, policy: .dropOldest)
    }

    /// Holds up to `capacity` unread elements; when full, drops the elements that arrive.
    ///
    /// - Precondition: `capacity` is at least 1.
    public static func keepingOldest(_ capacity: Int) -> ObservationBuffering {
        ObservationBuffering(capacity: capacity, policy: .dropNewest)
    }

    /// ``keepingNewest(_:)`` with room for 1,024 elements.
    public static let `default` = keepingNewest(1_024)

    private init(capacity: Int, policy: Policy) {
        precondition(
            capacity >= 1, "an observation buffer needs room for at least 1 element, not \(capacity)")
        self.capacity = capacity
        self.policy = policy
    }

    /// `keepingNewest(1024)`.
    public var description: String {
        switch policy {
        case .dropOldest: return "keepingNewest(\(capacity))"
        case .dropNewest: return "keepingOldest(\(capacity))"
        }
    }
}

/// The outcomes (or dead letters) of an event system's sends, as an asynchronous sequence: for
/// tests, dashboards and audit.
///
/// Make one with ``EventSystem/observeOutcomes(buffering:)`` or
/// ``EventSystem/observeDeadLetters(buffering:)``. The stream receives every element from the
/// moment it is made, whether or not anyone iterates it yet, and holds what has not been read
/// in a bounded buffer (``Buffering``): routing never waits for a consumer, and what a full
/// buffer drops is counted in ``droppedCount``.
///
/// ```swift
/// let deadLetters = system.observeDeadLetters()
/// Task {
///     for await letter in deadLetters {
///         logger.warning("dead letter: \(letter.event.traceName), \(letter.outcome)")
///     }
///     // Here the system has shut down and every post it held has ended.
/// }
/// ```
///
/// **Many consumers.** Each call makes an independent stream with its own buffer, and each
/// receives every element; all streams of one kind on one system receive them in the same order.
/// Within one stream, each element is read once: two loops over the same stream share its
/// elements between them.
///
/// **The end.** A stream finishes when its system's ``EventSystem/shutDown(gracePeriod:)`` has
/// returned, after every post the system held has ended; the consumer reads what is left, then the
/// loop ends. A stream made after that is finished from the start. A consumer whose task is
/// cancelled ends its loop at once: the stream closes and receives nothing more. A stream that
/// nobody holds any longer (the stream and its iterators are gone) closes too.
public struct ObservationStream<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = Never

    private let subscription: Subscription

    init(registry: ObserverRegistry<Element>, buffering: Buffering) {
        subscription = Subscription(registry: registry, buffering: buffering)
    }

    /// The number of elements this stream dropped because its buffer was full (see
    /// ``Buffering``). Counts only; it never goes down.
    public var droppedCount: Int { subscription.registry.droppedCount(of: subscription.stream) }

    /// The number of elements received and not yet read. A clear-box entry point for tests: an
    /// element is in every open stream by the time the send that produced it returns.
    public var _unreadCount: Int { subscription.registry.unreadCount(of: subscription.stream) }

    /// An iterator over the stream's elements.
    public func makeAsyncIterator() -> Iterator {
        Iterator(subscription: subscription)
    }

    /// Reads the elements of an ``ObservationStream`` in the order the stream received them.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = Never

        private let subscription: Subscription
        private var isDone = false

        fileprivate init(subscription: Subscription) {
            self.subscription = subscription
        }

        /// The next element: at once if one is unread, otherwise when one arrives; `nil` when the
        /// stream has finished and nothing is left, or when the calling task is cancelled (which
        /// closes the stream).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            guard !isDone else { return nil }
            if let element = await subscription.registry.next(from: subscription.stream) {
                return element
            }
            isDone = true
            if Task.isCancelled { subscription.registry.finish(subscription.stream) }
            return nil
        }

        /// The next element; see ``next(isolation:)``.
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }
    }

    /// How many elements an observation stream holds for a consumer that has not read them yet,
    /// and which it drops when it is full.
    ///
    /// Routing never waits for an observer: a send hands its outcome to every stream and goes on.
    /// A consumer slower than the sends falls behind by at most `capacity` elements; past that,
    /// the stream drops elements and counts them (``ObservationStream/droppedCount``).
    ///
    /// An unread element holds its event and its source, and a source holds the responder that
    /// sent it: a stream nobody reads keeps up to `capacity` senders alive. Size the buffer for
    /// how far behind a consumer may fall, not larger.
    ///
    /// ```swift
    /// // A dashboard: the latest 100 outcomes are what matter.
    /// let recent = system.observeOutcomes(buffering: .keepingNewest(100))
    /// // An audit that must notice a gap rather than skip silently past it.
    /// let audit = system.observeDeadLetters(buffering: .keepingOldest(10_000))
    /// ```
    public struct Buffering: Hashable, Sendable, CustomStringConvertible {
        /// Which element a full stream gives up.
        public enum Policy: Hashable, Sendable {
            /// Drop the oldest unread element to make room for the new one: the consumer sees the
            /// most recent `capacity` elements.
            case dropOldest
            /// Drop the new element: the consumer sees the first `capacity` elements it has not
            /// read, then, once it catches up, whatever comes next.
            case dropNewest
        }

        /// The most unread elements the stream holds. At least 1.
        public let capacity: Int
        /// What the stream drops when it holds `capacity` unread elements and another arrives.
        public let policy: Policy

        /// Holds up to `capacity` unread elements; when full, drops the oldest of them.
        ///
        /// - Precondition: `capacity` is at least 1.
        public static func keepingNewest(_ capacity: Int) -> Buffering {
            Buffering(capacity: capacity, policy: .dropOldest)
        }

        /// Holds up to `capacity` unread elements; when full, drops the elements that arrive.
        ///
        /// - Precondition: `capacity` is at least 1.
        public static func keepingOldest(_ capacity: Int) -> Buffering {
            Buffering(capacity: capacity, policy: .dropNewest)
        }

        /// ``keepingNewest(_:)`` with room for 1,024 elements.
        public static var `default`: Buffering { keepingNewest(1_024) }

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

    /// One stream's place in its registry, held by the stream value and its iterators: the
    /// stream stays in the registry while one of them is alive, and is removed when the last
    /// one is gone.
    fileprivate final class Subscription: Sendable {
        let registry: ObserverRegistry<Element>
        let stream: ObserverRegistry<Element>.StreamID

        init(registry: ObserverRegistry<Element>, buffering: Buffering) {
            self.registry = registry
            self.stream = registry.open(buffering: buffering)
        }

        deinit {
            registry.remove(stream)
        }
    }
}

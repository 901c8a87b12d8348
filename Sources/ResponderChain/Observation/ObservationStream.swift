/// The outcomes (or dead letters) of an event system's sends, as an asynchronous sequence: for
/// tests, dashboards and audit.
///
/// Make one with ``EventSystem/observeOutcomes(buffering:)`` or
/// ``EventSystem/observeDeadLetters(buffering:)``. The stream receives every element from the
/// moment it is made, whether or not anyone iterates it yet, and holds what has not been read
/// in a bounded buffer (``ObservationBuffering``): routing never waits for a consumer, and what a
/// full buffer drops is counted in ``droppedCount``.
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

    let token: ObservationToken<Element>

    init(registry: ObserverRegistry<Element>, buffering: ObservationBuffering) {
        token = ObservationToken(registry: registry, buffering: buffering)
    }

    /// The number of elements this stream dropped because its buffer was full (see
    /// ``ObservationBuffering``). Counts only; it never goes down.
    public var droppedCount: Int { token.subscription.droppedCount }

    /// The number of elements received and not yet read. A clear-box entry point for tests: an
    /// element is in every open stream by the time the send that produced it returns.
    public var _unreadCount: Int { token.subscription.unreadCount }

    /// An iterator over the stream's elements.
    public func makeAsyncIterator() -> Iterator {
        Iterator(token: token)
    }

    /// Reads the elements of an ``ObservationStream`` in the order the stream received them.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = Never

        let token: ObservationToken<Element>
        private var isDone = false

        init(token: ObservationToken<Element>) {
            self.token = token
        }

        /// The next element: at once if one is unread, otherwise when one arrives; `nil` when the
        /// stream has finished and nothing is left, or when the calling task is cancelled (which
        /// closes the stream).
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            guard !isDone else { return nil }
            if let element = await token.subscription.next() { return element }
            isDone = true
            if Task.isCancelled { token.close() }
            return nil
        }

        /// The next element; see ``next(isolation:)``.
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }
    }
}

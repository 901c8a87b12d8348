extension EventSystem {
    /// How many posted events a system holds at once, and what a post does when it is full.
    ///
    /// Every posted event counts from the moment it is accepted until its outcome is known (waiting in
    /// its sender's queue, or being delivered). A flood of posts therefore never grows memory beyond
    /// `maxOutstanding` events per system, and nothing is dropped silently:
    ///
    /// - ``Policy/suspend`` (the default): `post` waits for room. Waiting posters are resumed first
    ///   come, first served, once 1/16 of the limit is free again (so that a resumed poster can post
    ///   a batch before it waits again). Cancelling a waiting poster ends its ticket
    ///   ``Outcome/rejected(_:)`` with ``Outcome/Rejection/Reason/posterCancelled``.
    /// - ``Policy/reject``: `post` returns at once with a ticket whose outcome is
    ///   ``Outcome/rejected(_:)``, reason ``Outcome/Rejection/Reason/limitReached(maxOutstanding:)``.
    ///
    /// ```swift
    /// let ingest = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 512, whenFull: .reject))
    /// ```
    ///
    /// A handler that posts while it delivers a posted event of the same system is never suspended
    /// (its post is accepted over the limit): otherwise a full queue whose only consumer is that
    /// handler could never drain. The allowance belongs to that delivery while it runs, and to no
    /// one after: a task the handler started, posting after the delivery has ended, meets the limit
    /// like any other poster, so memory stays bounded whatever such tasks do.
    public struct PostingLimit: Hashable, Sendable, CustomStringConvertible {
        /// What `post` does when the system already holds ``maxOutstanding`` events.
        public enum Policy: Hashable, Sendable {
            /// Wait for room (backpressure on the poster).
            case suspend
            /// Fail fast: the ticket's outcome is ``Outcome/rejected(_:)``.
            case reject
        }

        /// The most posted events the system holds at once (queued or being delivered). At least 1.
        public let maxOutstanding: Int
        /// What `post` does when the limit is reached.
        public let policy: Policy

        /// A limit of `maxOutstanding` events (at least 1) with `policy` when full.
        public init(maxOutstanding: Int, whenFull policy: Policy = .suspend) {
            self.maxOutstanding = max(1, maxOutstanding)
            self.policy = policy
        }

        /// How much room must be free before waiting posters are resumed: 1/16 of the limit (at
        /// least 1). Resuming a poster for one slot would make it wait again at its next post.
        var resumeBatch: Int { max(1, maxOutstanding / 16) }

        /// 4,096 outstanding events, posters suspended when full.
        public static var `default`: EventSystem.PostingLimit {
            EventSystem.PostingLimit(maxOutstanding: 4_096)
        }

        /// `4096 outstanding, suspend when full`.
        public var description: String { "\(maxOutstanding) outstanding, \(policy) when full" }
    }
}

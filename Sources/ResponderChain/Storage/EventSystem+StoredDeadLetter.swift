extension EventSystem {
    /// A stored post that went to the dead letters, as its store keeps it: until it is redriven
    /// (``EventSystem/redriveDeadLetters(matching:perSecond:)``) or purged
    /// (``EventSystem/purgeDeadLetters(matching:)``), whatever the store's retention.
    ///
    /// ```swift
    /// for letter in try await system.storedDeadLetters(matching: .init(outcomes: [.failed])) {
    ///     print(letter.post.id, letter.post.key, letter.outcome, letter.age)
    /// }
    /// ```
    public struct StoredDeadLetter: Sendable {
        /// The post: its identifier, key, entry, event (or the bytes of one this binary cannot
        /// read) and its failed attempts before the last.
        public let post: StoredPost
        /// How its last attempt ended.
        public let outcome: StoredOutcome
        /// How long ago it ended, by the store's measure of time.
        public let age: Duration

        /// A dead letter of `post`, which ended with `outcome` `age` ago.
        public init(post: StoredPost, outcome: StoredOutcome, age: Duration) {
            self.post = post
            self.outcome = outcome
            self.age = age
        }
    }

    /// Which stored dead letters to read, redrive or purge: every condition given must hold.
    ///
    /// Dead letters come in post order (oldest first), at most ``limit`` at a time; ``after``
    /// continues a read where the last one ended.
    ///
    /// ```swift
    /// let stale = EventSystem.DeadLetterQuery(keys: ["order-17"], minimumAge: .seconds(3_600))
    /// let one = EventSystem.DeadLetterQuery(ids: [id])
    /// ```
    public struct DeadLetterQuery: Hashable, Sendable {
        /// The posts, by identifier (one, to redrive one); any when `nil`.
        public var ids: Set<EventID>?
        /// The names the events are stored under (a durable store's registered names; the
        /// in-memory store's are the events' ``Event/traceName``); any when `nil`.
        public var eventNames: Set<String>?
        /// The ordering keys; any when `nil`.
        public var keys: Set<OrderingKey>?
        /// The kinds of the last attempts' outcomes; any when `nil`.
        public var outcomes: Set<Outcome.Kind>?
        /// Only dead letters that ended at least this long ago.
        public var minimumAge: Duration?
        /// Only dead letters that ended at most this long ago.
        public var maximumAge: Duration?
        /// Only dead letters posted after the post `after` (in post order): where the last read
        /// ended.
        public var after: EventID?
        /// The most dead letters one read returns; at least 1.
        public var limit: Int {
            didSet { limit = max(1, limit) }
        }

        /// A query; every condition left `nil` matches everything.
        public init(
            ids: Set<EventID>? = nil, eventNames: Set<String>? = nil, keys: Set<OrderingKey>? = nil,
            outcomes: Set<Outcome.Kind>? = nil,
            minimumAge: Duration? = nil, maximumAge: Duration? = nil, after: EventID? = nil, limit: Int = 100
        ) {
            self.ids = ids
            self.eventNames = eventNames
            self.keys = keys
            self.outcomes = outcomes
            self.minimumAge = minimumAge
            self.maximumAge = maximumAge
            self.after = after
            self.limit = max(1, limit)
        }

        /// Every dead letter, 100 at a time.
        public static var all: DeadLetterQuery { DeadLetterQuery() }

        /// Whether the dead letter of post `id`, an event stored under `eventName`, with `key`,
        /// that ended with `outcome` `age` ago matches (``after`` and ``limit`` aside): the
        /// conditions a store that filters in memory applies.
        public func matches(
            id: EventID, eventName: String, key: OrderingKey, outcome: Outcome.Kind, age: Duration
        ) -> Bool {
            (ids?.contains(id) ?? true) && (eventNames?.contains(eventName) ?? true)
                && (keys?.contains(key) ?? true)
                && (outcomes?.contains(outcome) ?? true) && (minimumAge.map { age >= $0 } ?? true)
                && (maximumAge.map { age <= $0 } ?? true)
        }
    }
}

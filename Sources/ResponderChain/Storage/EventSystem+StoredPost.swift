extension EventSystem {
    /// A posted event as a ``EventSystem/PostStore`` keeps it: everything its delivery needs after a
    /// restart, named rather than referenced (no responder, task or clock of this process).
    ///
    /// The post office hands a store posts whose ``payload`` is ``Payload/event(_:)``; a store
    /// gives back, from ``EventSystem/PostStore/unfinished()``, what it could read.
    public struct StoredPost: Sendable {
        /// What a stored post carries: the event, or, read back, the bytes of one the store could
        /// not decode.
        public enum Payload: Sendable {
            /// The event.
            case event(any Event)
            /// A stored event this binary cannot read (its type was removed or changed). It is
            /// delivered to no one: it ends ``Outcome/failed(_:)`` with a
            /// ``ResponderChainError`` of code ``ResponderChainError/Code/undecodableStoredPost``,
            /// goes to the dead letters with its bytes, and its key goes on past it.
            case undecodable(Undecodable)
        }

        /// A stored event that could not be read, with everything the store knew of it. It is
        /// an event itself: the dead letters receive it in the unread event's place.
        public struct Undecodable: Event, Error, Hashable, CustomStringConvertible {
            /// The name the event was stored under.
            public let typeName: String
            /// The schema version it was stored with.
            public let schemaVersion: Int
            /// Its bytes, as stored.
            public let bytes: [UInt8]
            /// Why it could not be read.
            public let reason: String

            /// An unreadable stored event.
            public init(typeName: String, schemaVersion: Int, bytes: [UInt8], reason: String) {
                self.typeName = typeName
                self.schemaVersion = schemaVersion
                self.bytes = bytes
                self.reason = reason
            }

            /// `OrderPlaced v2 (84 bytes): unknown field "sku"`.
            public var description: String {
                "\(typeName) v\(schemaVersion) (\(bytes.count) bytes): \(reason)"
            }
        }

        /// What ``EventSystem/PostStore/store(_:)`` did with one post.
        public enum Acceptance: Hashable, Sendable {
            /// It is stored: it will be delivered, in this process or after a restart.
            case stored
            /// An earlier post with the same idempotency key is stored under `id`: this one was
            /// not written. `outcome` is the earlier one's, if it has finished.
            case duplicate(of: EventID, outcome: StoredOutcome?)
        }

        /// A post that ended, as ``EventSystem/PostStore/finish(_:)`` records it.
        public struct Finish: Hashable, Sendable {
            /// The post.
            public let id: EventID
            /// Its outcome.
            public let outcome: StoredOutcome
            /// The lease the post was claimed under, in a ``EventSystem/SharedPostStore``: the
            /// store records the finish only while the lease is its key's current one.
            public let lease: Lease?
            /// Whether the post went to the dead letters (it ended other than handled, and not
            /// by its own ticket's `cancel()`): the store keeps it as a dead letter until it is
            /// redriven or purged (``EventSystem/PostStore/deadLetters(matching:)``), past its
            /// retention.
            public let deadLettered: Bool

            /// Records that the post `id` ended with `outcome`, delivered under `lease` if it
            /// was claimed from a shared store, and went to the dead letters if `deadLettered`.
            public init(id: EventID, outcome: StoredOutcome, lease: Lease? = nil, deadLettered: Bool = false)
            {
                self.id = id
                self.outcome = outcome
                self.lease = lease
                self.deadLettered = deadLettered
            }
        }

        /// An attempt at delivering a stored post that failed and was to be tried again (see
        /// ``EventSystem/RetryPolicy``), as its store keeps it: the store's record of the post's
        /// failures, shared by every consumer and kept across restarts.
        public struct FailedAttempt: Hashable, Sendable {
            /// Its number, from 1.
            public let number: Int
            /// How it ended.
            public let outcome: StoredOutcome
            /// How long before the store read it back it ended, by the store's own measure of
            /// time.
            public let endedAgo: Duration

            /// Attempt `number`, which ended with `outcome` `endedAgo` before it was read.
            public init(number: Int, outcome: StoredOutcome, endedAgo: Duration) {
                self.number = number
                self.outcome = outcome
                self.endedAgo = endedAgo
            }
        }

        /// A failed attempt of a stored post that is to be tried again, as
        /// ``EventSystem/PostStore/recordFailure(_:)`` writes it.
        public struct Failure: Hashable, Sendable {
            /// The post.
            public let id: EventID
            /// The attempt's number, from 1.
            public let number: Int
            /// How it ended.
            public let outcome: StoredOutcome
            /// How long from now the next attempt waits: a post read back before then carries
            /// the rest of it (``StoredPost/retryAfter``).
            public let retryAfter: Duration
            /// The lease the post is delivered under, in a ``EventSystem/SharedPostStore``: the
            /// store records the failure only while the lease is its key's current one.
            public let lease: Lease?

            /// Records that attempt `number` of the post `id` ended with `outcome`, and that the
            /// next waits `retryAfter`.
            public init(
                id: EventID, number: Int, outcome: StoredOutcome, retryAfter: Duration, lease: Lease? = nil
            ) {
                self.id = id
                self.number = number
                self.outcome = outcome
                self.retryAfter = retryAfter
                self.lease = lease
            }
        }

        /// The post's identifier, unique across processes and restarts.
        public let id: EventID
        /// Its ordering key (its sender's name when the poster named none).
        public let key: OrderingKey
        /// The name its delivery starts at (see ``EventSystem/register(_:as:)``).
        public let entry: String
        /// The event.
        public let payload: Payload
        /// The poster's idempotency key, if it gave one.
        public let idempotencyKey: String?
        /// How long the post had until its deadline: when stored, the time left then; read back,
        /// the time left now, by the store's own measure of the time that passed. `nil` without
        /// a deadline.
        public let timeLeft: Duration?
        /// The trace context the post was made in (a W3C `traceparent`, say); empty when it was
        /// not traced.
        public let traceContext: [String: String]
        /// The lease it was claimed under (``EventSystem/SharedPostStore/claim(limit:)``); `nil`
        /// when it was not claimed.
        public let lease: Lease?
        /// Its attempts that failed and were to be tried again, oldest first (see
        /// ``EventSystem/PostStore/recordFailure(_:)``): its next attempt is number
        /// `failedAttempts.count + 1`. Empty for a post never tried, or tried once.
        public let failedAttempts: [FailedAttempt]
        /// How long, read back, until its next attempt may begin: the rest of the wait its
        /// last failure recorded; `nil` when it may begin now.
        public let retryAfter: Duration?

        /// A stored post.
        public init(
            id: EventID, key: OrderingKey, entry: String, payload: Payload, idempotencyKey: String? = nil,
            timeLeft: Duration? = nil, traceContext: [String: String] = [:], lease: Lease? = nil,
            failedAttempts: [FailedAttempt] = [], retryAfter: Duration? = nil
        ) {
            self.lease = lease
            self.failedAttempts = failedAttempts
            self.retryAfter = retryAfter
            self.id = id
            self.key = key
            self.entry = entry
            self.payload = payload
            self.idempotencyKey = idempotencyKey
            self.timeLeft = timeLeft
            self.traceContext = traceContext
        }
    }
}

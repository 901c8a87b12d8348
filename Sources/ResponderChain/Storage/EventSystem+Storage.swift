extension EventSystem {
    /// Where a system keeps the events posted to it (``EventSystem/init(tracer:deadLetters:postingLimit:runsCapturePhase:middleware:forwardingLimit:clock:storage:retryPolicies:)``).
    ///
    /// ```swift
    /// let system = EventSystem(storage: .store(try SQLitePostStore(path: "posts.sqlite", events: events)))
    /// ```
    public enum Storage: Sendable {
        /// In memory, in the post office's own queues (the default): nothing is written, and
        /// nothing posted survives the process.
        case memory
        /// In `store`: a post is accepted once the store holds it, and what was accepted and
        /// had not finished when the process died is delivered at the next start
        /// (``EventSystem/recoverStoredPosts()``).
        case store(any EventSystem.PostStore)
        /// In `store`, shared with other systems, in this process or others, that consume it
        /// together: a post is accepted once the store holds it, and is delivered by whichever
        /// consumer claims its key (``EventSystem/startConsuming(claimingUpTo:pollInterval:)``).
        case shared(any EventSystem.SharedPostStore)

        /// The store, shared or not; `nil` in memory.
        var store: (any EventSystem.PostStore)? {
            switch self {
            case .memory: nil
            case .store(let store): store
            case .shared(let store): store
            }
        }
    }
}

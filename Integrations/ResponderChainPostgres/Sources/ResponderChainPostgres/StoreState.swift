internal import ResponderChain

/// What a ``PostgresPostStore`` keeps in memory, behind its mutex.
struct StoreState: Sendable {
    /// The leases this store was given and has not released, by key: the heartbeat renews
    /// them, and the inbox checks a key's current token against them.
    var held: [String: Int64] = [:]
    /// The ``PostgresPostStore/signals()`` sequences, by number.
    var subscribers: [Int: AsyncStream<EventSystem.StoreSignal>.Continuation] = [:]
    var nextSubscriber = 0
    /// Whether ``PostgresPostStore/run()`` started, and whether it ended (the signals finished).
    var started = false
    var stopped = false
    /// When the store last pruned, on its clock.
    var prunedAt: Duration?
    /// The database's wall time when the store began, in microseconds since 1970.
    var wallOrigin: Int64?
    /// The backend process of the listening connection, while there is one.
    var listenerProcessID: Int32?
    /// Tests only: how long a claim's statement sleeps after it read the posts, before it locks
    /// their keys (the window another consumer's claim, finish and release can fall into).
    var claimPause: Duration?
    /// Leases whose release failed, to release again.
    var unreleased: [EventSystem.Lease] = []
    /// Wakes the task that releases them, while ``PostgresPostStore/run()`` runs.
    var releaseWakeup: AsyncStream<Void>.Continuation?

    /// Sends `signal` to every subscriber.
    func broadcast(_ signal: EventSystem.StoreSignal) {
        for continuation in subscribers.values { continuation.yield(signal) }
    }
}

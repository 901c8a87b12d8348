extension EventSystem {
    /// Registers `entry` as the responder stored posts called `name` start at: a post made by
    /// `entry` is stored under `name`, and a stored post naming `name` is delivered from
    /// `entry`, in this process or after a restart.
    ///
    /// Register every entry before ``recoverStoredPosts()``. A durable system
    /// (``Storage/store(_:)``) rejects a post whose sender has no name
    /// (``Outcome/Rejection/Reason/unnamedSender``); a system in memory needs no names.
    /// Registering another responder under a name replaces the first (a responder made anew,
    /// say).
    ///
    /// ```swift
    /// try system.register(ordersDesk, as: "orders")
    /// ```
    ///
    /// - Throws: ``ResponderChainError/Code/entryRenamed`` if `entry` is registered under
    ///   another name.
    public func register(_ entry: some Responder, as name: String) throws(ResponderChainError) {
        try entries.withLock { entries throws(ResponderChainError) in try entries.register(entry, as: name) }
    }

    /// Delivers the posts the store holds unfinished (those a previous run accepted and did not
    /// finish), each on its ordering key's lane, in the order they were stored, and returns how
    /// many it found. A system in memory has none; nor has one on a shared store, whose
    /// unfinished posts go to whichever consumer claims their keys
    /// (``startConsuming(claimingUpTo:pollInterval:)``): it returns 0.
    ///
    /// A post whose deadline passed while the process was down ends ``Outcome/timedOut(_:)``
    /// without a hop; one the store cannot read, or whose entry is not registered, ends
    /// ``Outcome/failed(_:)`` (codes ``ResponderChainError/Code/undecodableStoredPost`` and
    /// ``ResponderChainError/Code/unknownEntry``); each goes to the dead letters and its key
    /// goes on past it. Posts this system is already delivering are not delivered twice.
    ///
    /// ```swift
    /// try system.register(ordersDesk, as: "orders")
    /// let recovered = try await system.recoverStoredPosts()
    /// logger.info("\(recovered) posts from the last run")
    /// ```
    @discardableResult
    public func recoverStoredPosts() async throws -> Int {
        guard case .store(let store) = storage else { return 0 }
        let posts = try await store.unfinished()
        await deliverStored(posts)
        return posts.count
    }

    /// Delivers posts that are already in this system's store but were not posted through it:
    /// those a transaction wrote (a store's outbox), once the transaction has committed. Each
    /// is delivered on its ordering key's lane; posts this system already holds are skipped.
    public func deliverStored(_ posts: [StoredPost]) async {
        await postOffice.adopt(posts, system: self)
    }

    /// The outcome the store recorded for the post `id`, once it has finished (and until the
    /// store's retention ends); `nil` before, or in a system without a store.
    ///
    /// A post accepted before a restart has no ticket in the new process: this is where its
    /// outcome is read.
    public func storedOutcome(of id: EventID) async throws -> StoredOutcome? {
        guard let store = storage.store else { return nil }
        return try await store.outcome(of: id)
    }
}

extension EventSystem {
    /// How many posts wait for their store's next write to begin (for tests of group commit).
    package var postsWaitingForTheStore: Int { postOffice.writer?.waiting ?? 0 }
}

extension EventSystem {
    /// Starts this system's consumer of its shared store (``Storage/shared(_:)``): it claims
    /// keys whose posts no other consumer holds, up to `limit` posts at a time, delivers each
    /// post from its registered entry on its key's lane, records its end, and releases a key's
    /// lease once every post it claimed under it has ended. It claims when the store signals
    /// new posts, when this system stored posts, when a lease drained, and every
    /// `pollInterval` (on the system's clock) in case a signal was lost. It stops when the
    /// system shuts down, and releases the leases it holds then.
    ///
    /// Register every entry first. Calling it again changes the limit and the interval; in a
    /// system without a shared store, or once the system shut down, it does nothing. A system
    /// on a shared store that posts without consuming still follows its posts' ends (see
    /// ``Storage/shared(_:)``).
    ///
    /// ```swift
    /// let system = EventSystem(storage: .shared(store))
    /// try system.register(ordersDesk, as: "orders")
    /// system.startConsuming()
    /// ```
    public func startConsuming(claimingUpTo limit: Int = 256, pollInterval: Duration = .seconds(1)) {
        postOffice.consumer?.start(system: self, limit: limit, pollInterval: pollInterval)
    }
}

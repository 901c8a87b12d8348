internal import Logging
internal import PostgresNIO
public import ResponderChain
internal import Synchronization
public import ServiceLifecycle

extension PostgresPostStore: Service {
    /// Runs the store's background work until the task is cancelled or the service group shuts
    /// down gracefully: the heartbeat that renews the leases this store holds (each third of
    /// ``lease``, on the store's clock), the listener behind ``signals()``, on a connection
    /// of the client's pool held for it, and with ``metrics``, the sampling of the gauges (each
    /// ``PostgresStoreMetrics/interval``). Every ``signals()`` sequence finishes when it returns.
    ///
    /// Run it beside `client.run()` (in a ServiceGroup, after the client and before the event
    /// system's service, so that it outlives the system's last finish and release):
    ///
    /// ```swift
    /// let group = ServiceGroup(services: [client, store, systemService], logger: logger)
    /// try await group.run()
    /// ```
    ///
    /// - Throws: ``PostgresPostStoreError/invalidSetting(_:)`` if it runs already or ran
    ///   before (a store runs once).
    public func run() async throws {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard first else { throw PostgresPostStoreError.invalidSetting("run() runs once per store") }
        defer { stopSignals() }
        let (releases, wakeup) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let failedBefore = state.withLock { state in
            state.releaseWakeup = wakeup
            return !state.unreleased.isEmpty
        }
        if failedBefore { wakeup.yield() }
        defer {
            state.withLock { $0.releaseWakeup = nil }
            wakeup.finish()
        }
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.heartbeat() }
                group.addTask { await self.listen() }
                if let recorder = self.recorder { group.addTask { await self.sampleMetrics(into: recorder) } }
                group.addTask { await self.releaseAgain(whenWokenBy: releases) }
            }
        }
    }

    /// A new sequence of what the store hears of every consumer's work: `.posted` when posts
    /// were stored or keys with unfinished posts released (and each time the listener listens
    /// anew, in case it missed some), `.finished(ids)` when posts finished. It finishes when
    /// ``run()`` returns; a sequence asked for after that is finished at once.
    public func signals() -> AsyncStream<EventSystem.StoreSignal> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: EventSystem.StoreSignal.self, bufferingPolicy: .bufferingNewest(1024))
        let number: Int? = state.withLock { state in
            guard !state.stopped else { return nil }
            let number = state.nextSubscriber
            state.nextSubscriber += 1
            state.subscribers[number] = continuation
            return number
        }
        guard let number else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers.removeValue(forKey: number) }
        }
        return stream
    }

    /// Ends every ``signals()`` sequence, now and to come.
    private func stopSignals() {
        let subscribers = state.withLock { state in
            state.stopped = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        for continuation in subscribers { continuation.finish() }
    }

    /// Releases the leases whose release failed, each time it is woken: tries again after a
    /// pause that doubles from 50 ms up to a third of ``lease`` until none is left (a lease
    /// another consumer took meanwhile changes nothing), until cancelled.
    private func releaseAgain(whenWokenBy wakeups: AsyncStream<Void>) async {
        for await _ in wakeups {
            var pause = Duration.milliseconds(50)
            while true {
                let leases = state.withLock { state in
                    defer { state.unreleased = [] }
                    return state.unreleased
                }
                guard !leases.isEmpty else { break }
                do {
                    try await releaseRows(of: leases)
                } catch {
                    state.withLock { $0.unreleased += leases }
                    logger.debug("releasing leases again failed", metadata: ["error": "\(error)"])
                    do {
                        try await clock.sleep(for: pause)
                    } catch {
                        return
                    }
                    pause = min(pause * 2, max(lease / 3, .milliseconds(50)))
                }
            }
        }
    }

    /// Keeps `leases`, whose release failed, for ``releaseAgain(whenWokenBy:)``.
    func releaseLater(_ leases: [EventSystem.Lease]) {
        state.withLock { state in
            state.unreleased += leases
            return state.releaseWakeup
        }?.yield()
    }

    /// Renews the held leases each third of ``lease`` until cancelled; a failed renewal (the
    /// server is down, say) is logged and tried again at the next beat.
    private func heartbeat() async {
        while !Task.isCancelled {
            do {
                try await clock.sleep(for: lease / 3)
            } catch {
                return
            }
            do {
                try await renewLeases()
            } catch {
                logger.warning("lease heartbeat failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Listens on a connection of the pool until cancelled; a connection lost (closed,
    /// terminated, or silent past its health check) is replaced after a short pause that grows
    /// with consecutive failures (up to 5 seconds).
    private func listen() async {
        var failures = 0
        while !Task.isCancelled {
            var listened = false
            do {
                try await client.withConnection { connection in
                    try await self.listen(on: connection) { listened = true }
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning(
                    "the store's listening connection was lost; listening again",
                    metadata: ["error": "\(PostgresPostStoreError.wrapping(error, operation: "listen"))"])
            }
            state.withLock { $0.listenerProcessID = nil }
            failures = listened ? 1 : failures + 1
            let pause = min(Duration.milliseconds(50) * (1 << min(failures, 7)), .seconds(5))
            do {
                try await clock.sleep(for: pause)
            } catch {
                break
            }
        }
        state.withLock { $0.listenerProcessID = nil }
    }

    /// Listens on `connection`, passing each notification on, until the connection fails its
    /// health check or its notifications end; calls `listening` once `LISTEN` holds.
    private func listen(on connection: PostgresConnection, listening: () -> Void) async throws {
        var processID: Int32?
        for try await (pid, ) in try await connection.query("SELECT pg_backend_pid()", logger: logger).decode(
            (Int32.self,))
        {
            processID = pid
        }
        try await connection.listen(on: Self.channel) { notifications in
            listening()
            state.withLock { state in
                state.listenerProcessID = processID
                // What was posted while no one listened: the consumer claims again.
                state.broadcast(.posted)
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await notification in notifications { self.deliver(notification.payload) }
                    throw ListenerLost.notificationsEnded
                }
                group.addTask { try await self.checkHealth(of: connection) }
                try await group.next()
                group.cancelAll()
            }
        }
    }

    /// Why a listening connection is replaced.
    private enum ListenerLost: Error {
        case notificationsEnded
        case noAnswer
    }

    /// Asks `connection` a trivial query every third of ``lease``; one that is not answered
    /// within that time closes the connection and throws (a connection can die without a word:
    /// a peer gone, a firewall that dropped it).
    private func checkHealth(of connection: PostgresConnection) async throws {
        let interval = lease / 3
        while true {
            try await clock.sleep(for: interval)
            let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await connection.query("SELECT 1", logger: self.logger)
                    return true
                }
                group.addTask {
                    try await self.clock.sleep(for: interval)
                    return false
                }
                let answered = try await group.next() ?? false
                if !answered { try? await connection.close() }
                group.cancelAll()
                return answered
            }
            guard answered else { throw ListenerLost.noAnswer }
        }
    }

    /// Passes a notification's payload on to the subscribers: `p` is `.posted`, `f` followed by
    /// identifiers is `.finished`. Anything else (another version's notification) is ignored.
    private func deliver(_ payload: String) {
        let signal: EventSystem.StoreSignal
        switch payload.first {
        case "p": signal = .posted
        case "f":
            let ids = payload.dropFirst().split(separator: ",").compactMap { EventID(notificationText: $0) }
            guard !ids.isEmpty else { return }
            signal = .finished(ids)
        default: return
        }
        state.withLock { $0.broadcast(signal) }
    }

    /// The backend process ID of the listening connection (`pg_backend_pid()`), while the
    /// listener listens; `nil` before, between connections, and after ``run()``.
    public var listenerProcessID: Int32? { state.withLock { $0.listenerProcessID } }
}

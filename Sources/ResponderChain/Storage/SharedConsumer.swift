import Synchronization

/// A system's consumer of its shared store (``EventSystem/SharedPostStore``): it claims keys,
/// hands their posts to the post office's lanes, counts what it delivers under each lease, and
/// releases a lease once every post claimed under it has ended.
///
/// It claims when woken (the store signalled new posts, this system stored some, a lease
/// drained) and on its poll interval, in case a signal was lost. It learns of posts finished by
/// other consumers from the store's signals and, on the same interval, by asking the store: the
/// ticket of a post this system stored and another consumer finished ends with that outcome.
final class SharedConsumer: Sendable {
    private struct State {
        var running = false
        var stopped = false
        /// How many claimed posts may be outstanding at once; 0 until the system consumes.
        var limit = 0
        /// How long the consumer waits for a signal before it looks anyway.
        var pollInterval: Duration = .seconds(1)
        /// Posts claimed under each lease held and not yet ended.
        var held: [EventSystem.Lease: Int] = [:]
        /// Posts claimed and not yet ended, under every lease.
        var outstanding = 0
        /// A reason to claim came since the consumer last looked.
        var woken = false
        /// The consumer's task, waiting for a reason to claim.
        var sleeper: CheckedContinuation<Void, Never>?
        /// Posts the store said had finished, not yet looked at.
        var finished: [EventID] = []
        /// The consumer's tasks: the claiming loop, the signal reader, the poll.
        var tasks: [Task<Void, Never>] = []

        /// Records a wake-up; returns the sleeper to resume, if the consumer waits.
        mutating func wake() -> CheckedContinuation<Void, Never>? {
            woken = true
            defer { sleeper = nil }
            return sleeper
        }
    }

    let store: any EventSystem.SharedPostStore
    private let writer: StoreWriter
    private let state = Locked(State())

    init(store: any EventSystem.SharedPostStore, writer: StoreWriter) {
        self.store = store
        self.writer = writer
    }

    /// Starts claiming, up to `limit` posts outstanding at a time, looking every
    /// `pollInterval`; does nothing once stopped.
    func start(system: EventSystem, limit: Int, pollInterval: Duration) {
        state.withLock { state in
            state.limit = max(1, limit)
            state.pollInterval = pollInterval
        }
        run(system: system)
        wake()
    }

    /// Starts watching for the ends of posts this system stored (without claiming, unless
    /// ``start(system:limit:pollInterval:)`` said so); does nothing if already running.
    func watch(system: EventSystem) {
        run(system: system)
    }

    private func run(system: EventSystem) {
        let begins = state.withLock { state in
            guard !state.running, !state.stopped else { return false }
            state.running = true
            return true
        }
        guard begins else { return }
        // Detached, and holding the system weakly: the consumer serves the system, and keeps it
        // alive only while it works for it.
        let weakSystem = WeakSystem(system)
        let claiming = Task.detached {
            await self.claim(system: weakSystem)
        }
        let signals = Task.detached { [store] in
            for await signal in store.signals() {
                switch signal {
                case .posted: self.wake()
                case .finished(let ids): self.finishedElsewhere(ids)
                }
            }
        }
        let poll = Task.detached {
            // The system is not held while the poll sleeps.
            while let (timers, now) = weakSystem.system.map({ ($0.timers, $0.now) }) {
                let interval = self.state.withLock { $0.pollInterval }
                do {
                    try await timers.sleep(until: now + interval, for: .other("the shared store's poll"))
                } catch {
                    return
                }
                self.wake()
            }
        }
        let stoppedMeanwhile = state.withLock { state in
            state.tasks = [claiming, signals, poll]
            return state.stopped
        }
        if stoppedMeanwhile { for task in [claiming, signals, poll] { task.cancel() } }
    }

    /// A reason to claim: posts may be claimable.
    func wake() {
        state.withLock { $0.wake() }?.resume()
    }

    private func finishedElsewhere(_ ids: [EventID]) {
        state.withLock { state in
            state.finished.append(contentsOf: ids)
            return state.wake()
        }?.resume()
    }

    /// Counts `posts`, just claimed, under their leases, before any of them can end.
    func hold(_ posts: [EventSystem.StoredPost]) {
        state.withLock { state in
            for post in posts {
                guard let lease = post.lease else { continue }
                state.held[lease, default: 0] += 1
                state.outstanding += 1
            }
        }
    }

    /// A post claimed under `lease` ended (or was not delivered here): the lease is released
    /// once its last post has, after the posts' ends are written.
    func ended(under lease: EventSystem.Lease) {
        let drained = state.withLock { state -> Bool in
            guard let count = state.held[lease] else { return false }
            state.outstanding -= 1
            guard count > 1 else {
                state.held[lease] = nil
                return true
            }
            state.held[lease] = count - 1
            return false
        }
        guard drained else { return }
        // Claims again once the key is free: its posts may be left for the next claim.
        writer.release(lease) { [weak self] in self?.wake() }
        wake()
    }

    /// Stops claiming and watching; the leases still held stay counted, for the shutdown to
    /// release (``releaseAll()``) once the posts under them have ended or been kept.
    func stop() {
        let (tasks, sleeper) = state.withLock { state in
            state.stopped = true
            defer {
                state.tasks = []
                state.sleeper = nil
            }
            return (state.tasks, state.sleeper)
        }
        for task in tasks { task.cancel() }
        sleeper?.resume()
    }

    /// Releases every lease still held (the shutdown, once its posts have ended or been kept).
    func releaseAll() {
        let leases = state.withLock { state in
            defer {
                state.held = [:]
                state.outstanding = 0
            }
            return Array(state.held.keys)
        }
        for lease in leases { writer.release(lease) }
    }

    // MARK: The loop

    private func claim(system weakSystem: WeakSystem) async {
        while !isStopped {
            // The system is held while the consumer works for it, not while it waits.
            switch await work(system: weakSystem) {
            case nil: return
            case true?: await Task.yield()  // a full claim may have left more behind
            case false?: await waitForAReason()
            }
        }
    }

    /// Claims, then ends the tickets of posts finished elsewhere; `true` if the claim was full,
    /// `nil` if the system is gone.
    private func work(system weakSystem: WeakSystem) async -> Bool? {
        guard let system = weakSystem.system else { return nil }
        if await claimOnce(system: system) { return true }
        await endPostsFinishedElsewhere(system: system)
        return false
    }

    /// Claims what there is room for and hands it to the office; `true` if the claim was full.
    private func claimOnce(system: EventSystem) async -> Bool {
        let room = state.withLock { state in
            state.woken = false
            return state.limit - state.outstanding
        }
        guard room > 0, let posts = try? await store.claim(limit: room), !posts.isEmpty else { return false }
        hold(posts)
        if isStopped {
            // Stopped during the claim: nothing of it is delivered here.
            for post in posts { if let lease = post.lease { ended(under: lease) } }
            return false
        }
        let adopted = await system.postOffice.adopt(posts, system: system)
        // Claim again at once only if the claim was full of new work: a claim that gave back
        // posts this system already holds waits for the next reason.
        return posts.count == room && adopted > 0
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    /// Waits until woken, unless a reason came meanwhile.
    private func waitForAReason() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state in
                guard !state.woken, !state.stopped else { return true }
                state.sleeper = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Ends the tickets of posts this system stored that another consumer finished: those the
    /// store signalled, and a few of the others, in case a signal was lost.
    private func endPostsFinishedElsewhere(system: EventSystem) async {
        let office = system.postOffice
        let signalled = state.withLock { state in
            defer { state.finished.removeAll() }
            return state.finished
        }
        var candidates = office.ledger.unclaimedIDs(among: signalled)
        candidates += office.ledger.unclaimedIDs(limit: 64).filter { !candidates.contains($0) }
        for id in candidates {
            guard let stored = try? await store.outcome(of: id), let post = office.ledger.takeUnclaimed(id)
            else { continue }
            post.ticket.ledgerEntry?.markFinishedElsewhere()
            post.ticket.finish(Outcome(finishedElsewhere: stored, of: post, system: system))
        }
    }
}

/// A system held weakly by a task that serves it.
private struct WeakSystem: Sendable {
    weak let system: EventSystem?

    init(_ system: EventSystem) {
        self.system = system
    }
}

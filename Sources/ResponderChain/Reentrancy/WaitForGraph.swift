import Synchronization

/// Who waits for whom, across every event system of the process: what turns "waiting for
/// yourself" into an outcome instead of a hang.
///
/// Two things can make an event wait for another one without end:
///
/// - a one-at-a-time responder (``Responder/handlesOneEventAtATime``) held by a handler that
///   waits (awaits a post's ticket) for an event that needs that same responder;
/// - a post queued in its sender's lane behind a post whose handler waits for it.
///
/// The graph's nodes are what can be waited for: a post (its ticket, while its delivery runs or
/// it is queued) and a lock participant (a hop inside a one-at-a-time responder). Its edges are
/// the waits:
///
/// ```
///  post ──queued behind──▶ post in flight on its lane          (read from the post office)
///  post / participant ──its task awaits──▶ post's ticket        (registered here)
///  post / participant ──its task waits for──▶ lock ──held by──▶ participants
/// ```
///
/// A wait is registered here only when the waiting task holds something others may wait for (it
/// delivers a post, or is inside a lock): nothing can wait for any other task, so no loop can go
/// through it. Each new wait is checked before its task suspends: if what it waits for leads back
/// to what the task holds, the loop is broken at once, at a wait that can end without harm: the
/// new lock wait itself (the event is refused at that responder), or, for a new ticket wait, the
/// first lock wait or queued post on the loop (that event ends
/// ``Outcome/Rejection/Reason/wouldDeadlock``, so the ticket the handler waits for gets an
/// outcome).
///
/// Nothing here runs on the common path: an uncontended lock, a post delivered in turn, a ticket
/// awaited outside any delivery or lock never touch the graph.
final class WaitForGraph: Sendable {
    /// Something that can be waited for.
    enum Node: Hashable, Sendable {
        /// A post, by its ticket's identity.
        case post(ObjectIdentifier)
        /// A participant inside a one-at-a-time responder's lock.
        case participant(ObjectIdentifier)
    }

    /// What a task waits for.
    enum Target: Sendable {
        /// A one-at-a-time responder's lock, by the responder's identity.
        case lock(ObjectIdentifier)
        /// A posted event's outcome.
        case ticket(TicketState)
    }

    /// What the current task holds that others may be waiting for.
    struct Sources: Sendable {
        /// The post whose delivery runs in this task, if any.
        let post: TicketState?
        /// The participants of this task still inside their locks.
        let holds: [ObjectIdentifier]

        var isEmpty: Bool { post == nil && holds.isEmpty }

        var nodes: [Node] {
            (post.map { [.post(ObjectIdentifier($0))] } ?? []) + holds.map { .participant($0) }
        }

        /// What the current task holds.
        static func current() -> Sources {
            Sources(post: PostOffice.runningDelivery, holds: ExclusiveHandling.shared.currentHolds())
        }
    }

    /// Whether a new wait may begin.
    enum Verdict: Equatable {
        case wait
        /// The new wait closes a loop and nothing else on it can be refused: refuse this one.
        case wouldDeadlock
    }

    private struct Wait: Sendable {
        let target: Target
        /// The lock waiter to refuse to break a loop through this wait, for a lock wait.
        let lockWaiter: ExclusiveHandling.Participant?
    }

    /// A wait on a loop that can be ended.
    private enum Victim {
        case lockWaiter(ExclusiveHandling.Participant)
        case queuedPost(TicketState)
    }

    /// The waits of the process.
    static let shared = WaitForGraph()

    private let waits = Mutex<[Node: Wait]>([:])

    /// Registers that the current task, holding `sources`, waits for `target`.
    ///
    /// For a lock wait (`refusable` is the waiter), a loop back to `sources` is answered with
    /// ``Verdict/wouldDeadlock`` and nothing is registered. For a ticket wait, the first wait on
    /// the loop that can end is refused here (a lock waiter leaves its line refused; a queued
    /// post is taken out of its lane and ends rejected), and the wait is registered.
    /// Call ``endWaiting(_:)`` with the same sources once the wait is over.
    nonisolated(nonsending) func beginWaiting(
        _ sources: Sources,
        for target: Target,
        refusable: ExclusiveHandling.Participant? = nil
    ) async -> Verdict {
        let own = Set(sources.nodes)
        let victim = waits.withLock { waits -> Victim?? in
            if let loop = Self.loop(from: target, backTo: own, in: waits) {
                if refusable != nil { return .some(nil) }
                if let victim = loop {
                    for node in own { waits[node] = Wait(target: target, lockWaiter: refusable) }
                    return .some(victim)
                }
            }
            for node in own { waits[node] = Wait(target: target, lockWaiter: refusable) }
            return nil
        }
        switch victim {
        case .none:
            return .wait
        case .some(.none):
            return .wouldDeadlock
        case .some(.some(.lockWaiter(let waiter))):
            ExclusiveHandling.shared.refuse(waiter)
            return .wait
        case .some(.some(.queuedPost(let ticket))):
            await ticket.refuseWhileQueued()
            return .wait
        }
    }

    /// Whether a task inside `responder`'s lock has a wait registered now (for tests and
    /// diagnostics).
    func hasWait(insideLockOf responder: ObjectIdentifier) -> Bool {
        let holders = ExclusiveHandling.shared.holders(of: responder)
        return waits.withLock { waits in holders.contains { waits[.participant($0)] != nil } }
    }

    /// Removes the waits registered for `sources`.
    func endWaiting(_ sources: Sources) {
        waits.withLock { waits in
            for node in sources.nodes { waits[node] = nil }
        }
    }

    /// Follows the waits from `target`: `nil` when they never lead back to `own`; otherwise the
    /// loop's first wait that can be ended (or `.some(nil)` when none can).
    private static func loop(from target: Target, backTo own: Set<Node>, in waits: [Node: Wait]) -> Victim?? {
        var seen: Set<Node> = []
        // Depth-first, remembering for each path the first wait on it that can be ended.
        var stack: [(target: Target, victim: Victim?)] = [(target, nil)]
        while let (target, victim) = stack.popLast() {
            let reached: [Node]
            switch target {
            case .lock(let responder):
                reached = ExclusiveHandling.shared.holders(of: responder).map { .participant($0) }
            case .ticket(let ticket):
                reached = [.post(ObjectIdentifier(ticket))]
                if own.contains(reached[0]) { return .some(victim) }
                guard seen.insert(reached[0]).inserted else { continue }
                if let wait = waits[reached[0]] {
                    stack.append((wait.target, victim ?? wait.lockWaiter.map { .lockWaiter($0) }))
                } else if let ahead = ticket.postAhead() {
                    stack.append((.ticket(ahead), victim ?? .queuedPost(ticket)))
                }
                continue
            }
            for node in reached {
                if own.contains(node) { return .some(victim) }
                guard seen.insert(node).inserted, let wait = waits[node] else { continue }
                stack.append((wait.target, victim ?? wait.lockWaiter.map { .lockWaiter($0) }))
            }
        }
        return nil
    }
}

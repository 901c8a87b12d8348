/// Who waits for whom in one event system: what turns "waiting for yourself" into an outcome
/// instead of a hang.
///
/// Each system keeps a graph of its own (its post office's): a wait is registered in the graph of
/// the system of what it waits for (the ticket's post, the one-at-a-time responder's
/// ``Responder/eventSystem``), and a check follows the waits of that graph only. A loop whose
/// waits are all in one system is seen; one whose waits are split between systems is not, and
/// ends only with a deadline. Two systems never share wait state.
///
/// Two things can make an event wait for another one without end:
///
/// - a one-at-a-time responder (``Responder/handlingLock``) held by a handler that
///   waits (awaits a post's ticket) for an event that needs that same responder;
/// - a post queued in its sender's lane behind a post whose handler waits for it.
///
/// The graph's nodes are what can be waited for: a post (its ticket, while its delivery runs or
/// it is queued) and a lock participant (a hop inside a one-at-a-time responder's
/// ``HandlingLock``). Its edges are the waits:
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
/// Every wait is kept on its own: a task that holds something may wait for several things at once
/// (`async let`, a task group), each wait followed by the checks until it ends.
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
        /// A one-at-a-time responder's lock.
        case lock(HandlingLock)
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
            Sources(post: PostOffice.runningDelivery, holds: HandlingLock.currentHolds())
        }
    }

    /// One registered wait, to end with ``endWaiting(_:)``.
    struct Registration: Sendable {
        /// Tells this wait from the others of the same nodes.
        fileprivate let id: UInt64
        /// What the waiting task holds.
        fileprivate let nodes: [Node]
    }

    /// Whether a new wait may begin.
    enum Verdict: Sendable {
        /// It may: it is registered until ``endWaiting(_:)``.
        case wait(Registration)
        /// The new wait closes a loop and nothing else on it can be refused: refuse this one.
        case wouldDeadlock
    }

    private struct Wait: Sendable {
        let id: UInt64
        let target: Target
        /// The lock waiter to refuse to break a loop through this wait, for a lock wait.
        let lockWaiter: HandlingLock.Participant?
    }

    /// The waits registered now, by what their tasks hold: every wait of a task is listed under
    /// each node it holds.
    private struct Table {
        var waits: [Node: [Wait]] = [:]
        var nextID: UInt64 = 0
    }

    /// A wait on a loop that can be ended.
    private enum Victim {
        case lockWaiter(HandlingLock.Participant)
        case queuedPost(TicketState)
    }

    /// What following the waits from a new wait's target found.
    private enum Search {
        /// They never lead back to the waiting task.
        case noLoop
        /// They lead back to it; `breakable` is the loop's first wait that can end, if any.
        case loop(breakable: Victim?)
    }

    /// What to do about a new wait, once outside the lock.
    private enum Action {
        case wait(Registration)
        /// The new wait is a lock wait that closes a loop: refuse it.
        case refuseNewWait
        /// The new wait closes a loop: end `victim`'s wait, then wait.
        case refuse(Victim, Registration)
    }

    private let table = Locked(Table())

    /// A graph with no waits.
    init() {}

    /// Registers that the current task, holding `sources`, waits for `target`.
    ///
    /// For a lock wait (`refusable` is the waiter), a loop back to `sources` is answered with
    /// ``Verdict/wouldDeadlock`` and nothing is registered. For a ticket wait, the first wait on
    /// the loop that can end is refused here (a lock waiter leaves its line refused; a queued
    /// post is taken out of its lane and ends rejected), and the wait is registered.
    /// Call ``endWaiting(_:)`` with the registration once the wait is over.
    nonisolated(nonsending) func beginWaiting(
        _ sources: Sources,
        for target: Target,
        refusable: HandlingLock.Participant? = nil
    ) async -> Verdict {
        let nodes = sources.nodes
        let own = Set(nodes)
        let action = table.withLock { table -> Action in
            let search = Self.search(from: target, backTo: own, in: table.waits)
            if case .loop = search, refusable != nil { return .refuseNewWait }
            let registration = Registration(id: table.nextID, nodes: nodes)
            table.nextID += 1
            let wait = Wait(id: registration.id, target: target, lockWaiter: refusable)
            for node in own { table.waits[node, default: []].append(wait) }
            if case .loop(let victim?) = search { return .refuse(victim, registration) }
            return .wait(registration)
        }
        switch action {
        case .wait(let registration):
            return .wait(registration)
        case .refuseNewWait:
            return .wouldDeadlock
        case .refuse(.lockWaiter(let waiter), let registration):
            waiter.lock.refuse(waiter)
            return .wait(registration)
        case .refuse(.queuedPost(let ticket), let registration):
            await ticket.refuseWhileQueued()
            return .wait(registration)
        }
    }

    /// Removes the wait `registration` names, and only it.
    func endWaiting(_ registration: Registration) {
        table.withLock { table in
            for node in Set(registration.nodes) {
                guard var waits = table.waits[node] else { continue }
                waits.removeAll { $0.id == registration.id }
                table.waits[node] = waits.isEmpty ? nil : waits
            }
        }
    }

    /// Whether a task inside `lock` has a wait registered now (for tests and diagnostics).
    func hasWait(inside lock: HandlingLock) -> Bool {
        waitCount(inside: lock) > 0
    }

    /// How many waits the tasks inside `lock` have registered now (for tests and diagnostics).
    func waitCount(inside lock: HandlingLock) -> Int {
        let holders = lock.holders()
        return table.withLock { table in
            Set(holders.flatMap { table.waits[.participant($0)] ?? [] }.map(\.id)).count
        }
    }

    /// How many waits are registered now (for tests and diagnostics).
    var waitCount: Int {
        table.withLock { table in Set(table.waits.values.joined().map(\.id)).count }
    }

    /// Follows the waits from `target`, depth first, remembering on each path the first wait
    /// that can end, until they lead back to `own` or run out. Every wait of a node is followed.
    private static func search(from target: Target, backTo own: Set<Node>, in waits: [Node: [Wait]]) -> Search
    {
        var seen: Set<Node> = []
        var paths: [(target: Target, breakable: Victim?)] = [(target, nil)]
        while let (target, breakable) = paths.popLast() {
            switch target {
            case .lock(let lock):
                // A lock waits for the participants inside it.
                for participant in lock.holders() {
                    let node = Node.participant(participant)
                    if own.contains(node) { return .loop(breakable: breakable) }
                    guard seen.insert(node).inserted else { continue }
                    for wait in waits[node] ?? [] {
                        paths.append((wait.target, breakable ?? wait.lockWaiter.map { .lockWaiter($0) }))
                    }
                }
            case .ticket(let ticket):
                // A ticket waits for its post: for what its delivery waits for, or, queued, for
                // the post ahead of it on its lane.
                let node = Node.post(ObjectIdentifier(ticket))
                if own.contains(node) { return .loop(breakable: breakable) }
                guard seen.insert(node).inserted else { continue }
                if let delivering = waits[node] {
                    for wait in delivering {
                        paths.append((wait.target, breakable ?? wait.lockWaiter.map { .lockWaiter($0) }))
                    }
                } else if let ahead = ticket.postAhead() {
                    paths.append((.ticket(ahead), breakable ?? .queuedPost(ticket)))
                }
            }
        }
        return .noLoop
    }
}

@testable import ResponderChain
import ResponderChainTesting
import Testing

/// The event a test sends first.
private struct Outer: Event {}
/// The event the outer handler posts and waits for.
private struct Inner: Event {}
/// The event the inner handler posts and waits for, in a loop of two.
private struct Innermost: Event {}

/// A root whose `Outer` handler posts `Inner` through `target` (by default itself) and waits for
/// its ticket, keeping the outcome; its `Inner` handler (and `Innermost`'s) records the event and
/// handles it. With `forward`, its `Inner` handler posts `Innermost` through `forward` (with
/// `forwardTimeout`, if any) and waits in turn.
private actor Waiter: Responder {
    nonisolated let label: String
    nonisolated let handlingLock: HandlingLock?
    nonisolated let eventSystem: EventSystem
    private let forwardTimeout: Duration?
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }

    private(set) var seen: [String] = []
    private(set) var innerOutcome: Outcome?
    private(set) var innermostOutcome: Outcome?
    private var target: (any Responder)?
    private var forward: (any Responder)?
    /// Passed (open: an arrival only) by the `Outer` handler once it has posted.
    let posted = Gate()
    /// Passed by the `Outer` handler before it waits for the ticket (open it to go on).
    let beforeWaiting = Gate()
    private var holdsBeforeWaiting = false

    init(
        _ label: String, oneAtATime: Bool, system: EventSystem = .default, forwardTimeout: Duration? = nil
    ) {
        self.label = label
        self.handlingLock = oneAtATime ? HandlingLock() : nil
        self.eventSystem = system
        self.forwardTimeout = forwardTimeout
        posted.open()
    }

    func post(to target: any Responder) { self.target = target }
    func forward(to target: any Responder) { self.forward = target }
    func holdBeforeWaiting() { holdsBeforeWaiting = true }

    static let strategies = Strategies<Waiter> {
        $0.on(Outer.self) { me, _, _ in
            me.seen.append("outer")
            let ticket = await (me.target ?? me).post(Inner())
            try? await me.posted.pass()
            if me.holdsBeforeWaiting { try await me.beforeWaiting.pass() }
            me.innerOutcome = await ticket.outcome
            return .handled
        }
        $0.on(Inner.self) { me, _, _ in
            me.seen.append("inner")
            if let forward = me.forward {
                let options = SendOptions(timeout: me.forwardTimeout)
                me.innermostOutcome = await forward.post(Innermost(), options: options).outcome
            }
            return .handled
        }
        $0.on(Innermost.self) { me, _, _ in
            me.seen.append("innermost")
            return .handled
        }
    }
}

@Suite("Waiting on yourself: a wait that could never end is refused", .timeLimit(.minutes(1)))
struct WaitingOnYourselfTests {
    @Test(
        "a one-at-a-time handler that awaits a post through its own responder gets it back rejected, would deadlock, and goes on"
    )
    func oneAtATimeAwaitsItsOwnPost() async throws {
        let waiter = Waiter("L", oneAtATime: true)

        let outcome = await waiter.send(Outer())

        #expect(outcome.kind == .handled)
        let inner = try #require(await waiter.innerOutcome?.rejectedDetails)
        #expect(inner.reason == .wouldDeadlock)
        #expect(inner.sender == ResponderID(waiter))
        #expect(inner.path.hops == 0)
        #expect(await waiter.seen == ["outer"])
    }

    @Test(
        "the refusal comes whichever happens first: the post reaching the held responder, or the handler starting to wait"
    )
    func eitherOrderIsRefused() async throws {
        // The post reaches the responder's lock and waits in its line before the handler waits
        // for its ticket: the handler's wait closes the loop and refuses the post.
        let waiter = Waiter("L", oneAtATime: true)
        await waiter.holdBeforeWaiting()
        let sending = Task { await waiter.send(Outer()) }
        try await waiter.posted.waitForArrivals(1)
        try await waitUntil("the post waits for the held responder") {
            waiter.handlingLock?.waitingCount == 1
        }
        waiter.beforeWaiting.open()

        #expect(await sending.value.kind == .handled)
        #expect(await waiter.innerOutcome?.rejectedDetails?.reason == .wouldDeadlock)
        #expect(waiter.handlingLock?.waitingCount == 0)
        #expect(await waiter.seen == ["outer"])
    }

    @Test(
        "a post that reaches the held responder after the handler began waiting for it is refused at the door, after the hops it ran"
    )
    func postArrivingLateIsRefusedAtTheDoor() async throws {
        let waiter = Waiter("L", oneAtATime: true)
        let lock = try #require(waiter.handlingLock)
        let graph = EventSystem.default.postOffice.waitForGraph
        let gatekeeper = Gatekeeper(above: waiter)
        await waiter.post(to: gatekeeper)
        let sending = Task { await waiter.send(Outer()) }
        try await gatekeeper.gate.waitForArrivals(1)
        try await waitUntil("the handler waits for the post's ticket") {
            graph.hasWait(inside: lock)
        }
        gatekeeper.gate.open()

        #expect(await sending.value.kind == .handled)
        let inner = try #require(await waiter.innerOutcome?.rejectedDetails)
        #expect(inner.reason == .wouldDeadlock)
        #expect(inner.sender == ResponderID(waiter))
        #expect(inner.path.hops == 1)
        #expect(await waiter.seen == ["outer"])
        #expect(!graph.hasWait(inside: lock))
    }

    @Test(
        "two one-at-a-time responders whose handlers await each other's posts: the post that would close the loop is refused"
    )
    func loopOfTwo() async throws {
        let first = Waiter("L1", oneAtATime: true)
        let second = Waiter("L2", oneAtATime: true)
        await first.post(to: second)
        await second.forward(to: first)

        let outcome = await first.send(Outer())

        #expect(outcome.kind == .handled)
        #expect(await first.innerOutcome?.kind == .handled)
        let innermost = try #require(await second.innermostOutcome?.rejectedDetails)
        #expect(innermost.reason == .wouldDeadlock)
        #expect(innermost.sender == ResponderID(first))
        #expect(await first.seen == ["outer"])
        #expect(await second.seen == ["inner"])
    }

    @Test(
        "a handler of a posted event that awaits a later post of the same sender gets it back rejected: it was queued behind its own post"
    )
    func queuedBehindItsOwnPost() async throws {
        let letters = DeadLetterRecorder()
        let system = EventSystem(deadLetters: letters.sink)
        let waiter = SystemWaiter(system: system)

        let outer = await waiter.post(Outer())
        let outcome = await outer.outcome

        #expect(outcome.kind == .handled)
        let inner = try #require(await waiter.innerOutcome?.rejectedDetails)
        #expect(inner.reason == .wouldDeadlock)
        #expect(inner.sender == ResponderID(waiter))
        #expect(await waiter.seen == ["outer"])
        #expect(letters.outcomes.map(\.kind) == [.rejected])
        #expect(system.outstandingPosts == 0)
    }

    @Test(
        "a one-at-a-time handler awaiting several tickets at once: the post that loops back is refused after the others' waits ended",
        arguments: [1, 3]
    )
    func loopingPostRefusedAfterTheOtherWaitsEnded(others: Int) async throws {
        let rig = try await ManyWaitsRig(others: others)
        let (graph, waiter, lock, gatekeeper, frees, sending) = (
            rig.graph, rig.waiter, rig.lock, rig.gatekeeper, rig.frees, rig.sending
        )
        for free in frees { free.gate.open() }
        try await waiter.otherWaitEnded.waitForArrivals(others)
        #expect(graph.waitCount(inside: lock) == 1)
        gatekeeper.gate.open()

        #expect(await sending.value.kind == .handled)
        #expect(await waiter.loopOutcome?.rejectedDetails?.reason == .wouldDeadlock)
        #expect(await waiter.otherOutcomes.map(\.kind) == Array(repeating: .handled, count: others))
        #expect(await waiter.seenInner == 0)
        #expect(graph.waitCount == 0)
    }

    @Test(
        "a one-at-a-time handler awaiting several tickets at once: the post that loops back is refused while the others still wait, and they end normally",
        arguments: [1, 3]
    )
    func loopingPostRefusedWhileTheOthersWait(others: Int) async throws {
        let rig = try await ManyWaitsRig(others: others)
        let (graph, waiter, lock, gatekeeper, frees, sending) = (
            rig.graph, rig.waiter, rig.lock, rig.gatekeeper, rig.frees, rig.sending
        )
        gatekeeper.gate.open()
        try await waiter.loopWaitEnded.waitForArrivals(1)
        #expect(await waiter.loopOutcome?.rejectedDetails?.reason == .wouldDeadlock)
        #expect(graph.waitCount(inside: lock) == others)
        for free in frees { free.gate.open() }

        #expect(await sending.value.kind == .handled)
        #expect(await waiter.otherOutcomes.map(\.kind) == Array(repeating: .handled, count: others))
        #expect(graph.waitCount == 0)
    }

    @Test(
        "a one-at-a-time handler that sends to its own responder from a detached task and awaits it is not seen: the send's deadline ends it, and the responder is free again"
    )
    func selfSendThroughADetachedTaskEndsAtItsDeadline() async throws {
        let system = EventSystem()
        let sender = DetachedSelfSender(system: system)
        let lock = try #require(sender.handlingLock)

        let outcome = await sender.send(Outer())

        #expect(outcome.kind == .handled)
        let stop = try #require(await sender.innerOutcome?.timedOutDetails)
        #expect(!stop.whileHandling)
        #expect(lock.waitingCount == 0)
        #expect(await sender.send(Inner()).kind == .handled)
        #expect(await sender.seen == ["outer", "inner"])
        #expect(system.postOffice.waitForGraph.waitCount == 0)
    }

    @Test("waiting for a post that needs nothing the waiter holds is not refused")
    func unrelatedWaitsAreNotRefused() async {
        let first = Waiter("L1", oneAtATime: true)
        let second = Waiter("L2", oneAtATime: true)
        await first.post(to: second)

        let outcome = await first.send(Outer())

        #expect(outcome.kind == .handled)
        #expect(await first.innerOutcome?.kind == .handled)
        #expect(await second.seen == ["inner"])
    }
}

/// A `Waiter` through its own system, for the lane case: it posts `Outer` to itself.
private actor SystemWaiter: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    private(set) var seen: [String] = []
    private(set) var innerOutcome: Outcome?

    init(system: EventSystem) { self.eventSystem = system }

    static let strategies = Strategies<SystemWaiter> {
        $0.on(Outer.self) { me, _, _ in
            me.seen.append("outer")
            me.innerOutcome = await me.post(Inner()).outcome
            return .handled
        }
        $0.on(Inner.self) { me, _, _ in
            me.seen.append("inner")
            return .handled
        }
    }
}

/// A responder below `above` that parks `Inner` on its gate, then passes it on.
private actor Gatekeeper: Responder {
    nonisolated let eventSystem: EventSystem
    let above: any Responder
    let gate = Gate()
    var next: (any Responder)? { above }

    init(above: any Responder, system: EventSystem = .default) {
        self.above = above
        self.eventSystem = system
    }

    static let strategies = Strategies<Gatekeeper> {
        $0.on(Inner.self) { me, _, _ in
            try await me.gate.pass()
            return .pass
        }
    }
}

/// A ``ManyWaiter`` whose handler waits for its looping post and for `others` posts to free roots
/// at once: the state both many-waits tests start from.
private struct ManyWaitsRig {
    let graph: WaitForGraph
    let waiter: ManyWaiter
    let lock: HandlingLock
    let gatekeeper: Gatekeeper
    /// The free roots: each parks its post until its gate opens.
    let frees: [(gate: Gate, root: ScriptedResponder)]
    let sending: Task<Outcome, Never>

    init(others: Int) async throws {
        let system = EventSystem()
        graph = system.postOffice.waitForGraph
        waiter = ManyWaiter(system: system)
        lock = try #require(waiter.handlingLock)
        gatekeeper = Gatekeeper(above: waiter, system: system)
        frees = (0..<others).map { index in
            let gate = Gate()
            return (gate, ScriptedResponder("free\(index)", .park(gate), root: true, system: system))
        }
        await waiter.wire(gatekeeper: gatekeeper, frees: frees.map(\.root))

        let waiter = waiter
        sending = Task { await waiter.send(Outer()) }
        let (graph, lock) = (graph, lock)
        try await waitUntil("the handler waits for the looping post") { graph.waitCount(inside: lock) == 1 }
        waiter.startOtherWaits.open()
        try await waitUntil("and for every other post") { graph.waitCount(inside: lock) == others + 1 }
    }
}

/// A one-at-a-time root whose `Outer` handler posts `Inner` back to itself through its
/// gatekeeper, and to each free root, then waits for all the tickets at once (a task group): the
/// looping one at once, the others once `startOtherWaits` opens. `loopWaitEnded` and
/// `otherWaitEnded` count the waits that ended.
private actor ManyWaiter: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let handlingLock: HandlingLock? = HandlingLock()
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    let startOtherWaits = Gate()
    let loopWaitEnded = Gate()
    let otherWaitEnded = Gate()
    private(set) var loopOutcome: Outcome?
    private(set) var otherOutcomes: [Outcome] = []
    private(set) var seenInner = 0
    private var gatekeeper: (any Responder)?
    private var frees: [any Responder] = []

    init(system: EventSystem) {
        self.eventSystem = system
        loopWaitEnded.open()
        otherWaitEnded.open()
    }

    func record(loop outcome: Outcome) { loopOutcome = outcome }

    func wire(gatekeeper: any Responder, frees: [any Responder]) {
        self.gatekeeper = gatekeeper
        self.frees = frees
    }

    static let strategies = Strategies<ManyWaiter> {
        $0.on(Outer.self) { me, _, _ in
            guard let gatekeeper = me.gatekeeper else { return .handled }
            // The timeout only turns a hang into a failure, should the refusal not come.
            let looping = await gatekeeper.post(Inner(), options: SendOptions(timeout: .seconds(10)))
            var others: [Ticket] = []
            for free in me.frees { others.append(await free.post(Inner())) }
            let start = me.startOtherWaits
            let loopEnded = me.loopWaitEnded
            let otherEnded = me.otherWaitEnded
            let outcomes = await withTaskGroup(of: (Int, Outcome).self) { group in
                group.addTask {
                    let outcome = await looping.outcome
                    await me.record(loop: outcome)
                    try? await loopEnded.pass()
                    return (-1, outcome)
                }
                for (index, ticket) in others.enumerated() {
                    group.addTask {
                        try? await start.pass()
                        let outcome = await ticket.outcome
                        try? await otherEnded.pass()
                        return (index, outcome)
                    }
                }
                var outcomes: [Int: Outcome] = [:]
                for await (index, outcome) in group { outcomes[index] = outcome }
                return outcomes
            }
            me.otherOutcomes = others.indices.compactMap { outcomes[$0] }
            return .handled
        }
        $0.on(Inner.self) { me, _, _ in
            me.seenInner += 1
            return .handled
        }
    }
}

/// A one-at-a-time root whose `Outer` handler sends `Inner` to itself from a detached task, with
/// a short timeout, and waits for it.
private actor DetachedSelfSender: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let handlingLock: HandlingLock? = HandlingLock()
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    private(set) var seen: [String] = []
    private(set) var innerOutcome: Outcome?

    init(system: EventSystem) { self.eventSystem = system }

    static let strategies = Strategies<DetachedSelfSender> {
        $0.on(Outer.self) { me, _, _ in
            me.seen.append("outer")
            me.innerOutcome = await Task.detached {
                await me.send(Inner(), options: SendOptions(timeout: .milliseconds(50)))
            }.value
            return .handled
        }
        $0.on(Inner.self) { me, _, _ in
            me.seen.append("inner")
            return .handled
        }
    }
}

@Suite("Wait state per event system: each system checks its own waits", .timeLimit(.minutes(1)))
struct WaitScopeTests {
    @Test(
        "a handler's wait for a ticket is registered in the system of the post it waits for, and nowhere else",
        arguments: [false, true]
    )
    func waitIsRegisteredWithThePostsSystem(postToOtherSystem: Bool) async throws {
        let own = EventSystem()
        let other = EventSystem()
        let looper = Waiter("L", oneAtATime: true, system: own)
        let lock = try #require(looper.handlingLock)
        let gate = Gate()
        let free = ScriptedResponder("free", .park(gate), root: true, system: postToOtherSystem ? other : own)
        await looper.post(to: free)
        let (holding, quiet) = postToOtherSystem ? (other, own) : (own, other)

        let sending = Task { await looper.send(Outer()) }
        try await gate.waitForArrivals(1)
        try await waitUntil("the handler waits for the post") {
            holding.postOffice.waitForGraph.hasWait(inside: lock)
        }
        #expect(holding.postOffice.waitForGraph.waitCount == 1)
        #expect(!quiet.postOffice.waitForGraph.hasWait(inside: lock))
        #expect(quiet.postOffice.waitForGraph.waitCount == 0)
        gate.open()

        #expect(await sending.value.kind == .handled)
        #expect(await looper.innerOutcome?.kind == .handled)
        #expect(own.postOffice.waitForGraph.waitCount == 0)
        #expect(other.postOffice.waitForGraph.waitCount == 0)
    }

    @Test(
        "a loop whose waits are split between two systems is not seen: the deadline of the post that closes it ends it timed out"
    )
    func loopThroughTwoSystemsEndsAtItsDeadline() async throws {
        let first = Waiter("L1", oneAtATime: true, system: EventSystem())
        let second = Waiter("L2", oneAtATime: true, system: EventSystem(), forwardTimeout: .milliseconds(100))
        await first.post(to: second)
        await second.forward(to: first)

        let outcome = await first.send(Outer())

        #expect(outcome.kind == .handled)
        #expect(await first.innerOutcome?.kind == .handled)
        let stop = try #require(await second.innermostOutcome?.timedOutDetails)
        #expect(!stop.whileHandling)
        #expect(stop.responder == ResponderID(first))
        #expect(await first.seen == ["outer"])
        #expect(await second.seen == ["inner"])
        #expect(first.eventSystem.postOffice.waitForGraph.waitCount == 0)
        #expect(second.eventSystem.postOffice.waitForGraph.waitCount == 0)
    }
}

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
/// handles it. With `forward`, its `Inner` handler posts `Innermost` through `forward` and waits in
/// turn.
private actor Waiter: Responder {
    nonisolated let label: String
    nonisolated let handlingLock: HandlingLock?
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

    init(_ label: String, oneAtATime: Bool) {
        self.label = label
        self.handlingLock = oneAtATime ? HandlingLock() : nil
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
                me.innermostOutcome = await forward.post(Innermost()).outcome
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
        let gatekeeper = Gatekeeper(above: waiter)
        await waiter.post(to: gatekeeper)
        let sending = Task { await waiter.send(Outer()) }
        try await gatekeeper.gate.waitForArrivals(1)
        try await waitUntil("the handler waits for the post's ticket") {
            WaitForGraph.shared.hasWait(inside: lock)
        }
        gatekeeper.gate.open()

        #expect(await sending.value.kind == .handled)
        let inner = try #require(await waiter.innerOutcome?.rejectedDetails)
        #expect(inner.reason == .wouldDeadlock)
        #expect(inner.sender == ResponderID(waiter))
        #expect(inner.path.hops == 1)
        #expect(await waiter.seen == ["outer"])
        #expect(!WaitForGraph.shared.hasWait(inside: lock))
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
    let above: any Responder
    let gate = Gate()
    var next: (any Responder)? { above }

    init(above: any Responder) { self.above = above }

    static let strategies = Strategies<Gatekeeper> {
        $0.on(Inner.self) { me, _, _ in
            try await me.gate.pass()
            return .pass
        }
    }
}

@testable import ResponderChain
import ResponderChainTesting
import Testing

/// The event a test sends first.
private struct Outer: Event {}
/// The event the outer handler posts and waits for.
private struct Inner: Event {}
/// The event the inner handler posts back and waits for.
private struct Innermost: Event {}

@Suite("Wait state per event system: each system checks its own waits", .timeLimit(.minutes(1)))
struct WaitScopeTests {
    @Test(
        "a handler's wait for a ticket is registered in the system of the post it waits for, and nowhere else",
        arguments: [false, true]
    )
    func waitIsRegisteredWithThePostsSystem(postToOtherSystem: Bool) async throws {
        let own = EventSystem()
        let other = EventSystem()
        let looper = Looper(system: own)
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
        let first = Looper(system: EventSystem())
        let second = Looper(system: EventSystem())
        await first.post(to: second)
        await second.postBack(to: first)

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

/// A one-at-a-time root whose `Outer` handler posts `Inner` to `target` and waits for its ticket;
/// with `back`, its `Inner` handler posts `Innermost` to `back`, with a short timeout, and waits
/// in turn.
private actor Looper: Responder {
    nonisolated let eventSystem: EventSystem
    nonisolated let handlingLock: HandlingLock? = HandlingLock()
    nonisolated var isRoot: Bool { true }
    var next: (any Responder)? { nil }
    private(set) var seen: [String] = []
    private(set) var innerOutcome: Outcome?
    private(set) var innermostOutcome: Outcome?
    private var target: (any Responder)?
    private var back: (any Responder)?

    init(system: EventSystem) { self.eventSystem = system }

    func post(to target: any Responder) { self.target = target }
    func postBack(to back: any Responder) { self.back = back }

    static let strategies = Strategies<Looper> {
        $0.on(Outer.self) { me, _, _ in
            me.seen.append("outer")
            guard let target = me.target else { return .handled }
            me.innerOutcome = await target.post(Inner()).outcome
            return .handled
        }
        $0.on(Inner.self) { me, _, _ in
            me.seen.append("inner")
            if let back = me.back {
                me.innermostOutcome =
                    await back.post(Innermost(), options: SendOptions(timeout: .milliseconds(100))).outcome
            }
            return .handled
        }
        $0.on(Innermost.self) { me, _, _ in
            me.seen.append("innermost")
            return .handled
        }
    }
}

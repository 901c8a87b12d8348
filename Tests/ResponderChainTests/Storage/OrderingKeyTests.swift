import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Ordering keys")
struct OrderingKeyTests {
    /// A new system whose root parks `Numbered(number: 0)` on the returned gate and handles every
    /// other event at once.
    private static func rootParkingPostZero() -> (EventSystem, Gate, ScriptedResponder) {
        let system = EventSystem()
        let gate = Gate()
        let root = ScriptedResponder("root", root: true, system: system) { event in
            (event as? Numbered)?.number == 0 ? .park(gate) : .handle
        }
        return (system, gate, root)
    }

    @Test("posts with the same key run one at a time, in post order, whichever responder posts them")
    func sameKeyRunsInPostOrder() async throws {
        let (system, gate, root) = Self.rootParkingPostZero()
        let first = ScriptedResponder("first", parent: root, system: system)
        let second = ScriptedResponder("second", parent: root, system: system)
        let parked = await first.post(Numbered(number: 0), key: "order-7")
        try await gate.waitForArrivals(1)
        let behind = await second.post(Numbered(number: 1), key: "order-7")
        let last = await first.post(Numbered(number: 2), key: "order-7")
        #expect(behind.finishedOutcome == nil)  // waits behind the parked post of its key
        gate.open()
        for ticket in [parked, behind, last] { _ = await ticket.outcome }
        #expect(await root.seen.compactMap { ($0.event as? Numbered)?.number } == [0, 1, 2])
        #expect(await root.maxRunning == 1)
    }

    @Test("posts with different keys run at the same time, even from one sender")
    func differentKeysRunConcurrently() async throws {
        let system = EventSystem()
        let gate = Gate()
        let root = ScriptedResponder("root", .park(gate), root: true, system: system)
        let sender = ScriptedResponder("sender", parent: root, system: system)
        var tickets: [Ticket] = []
        for number in 0..<4 {
            tickets.append(
                await sender.post(Numbered(number: number), key: EventSystem.OrderingKey("key-\(number)")))
        }
        try await gate.waitForArrivals(4)  // all four are inside the handler at once
        gate.open()
        for ticket in tickets { #expect(await ticket.outcome.kind == .handled) }
        #expect(await root.maxRunning == 4)
    }

    @Test("a post without a key is ordered with its sender's other posts, not with a key's")
    func noKeyMeansTheSendersLane() async throws {
        let (system, gate, root) = Self.rootParkingPostZero()
        let sender = ScriptedResponder("sender", parent: root, system: system)
        let parked = await sender.post(Numbered(number: 0))
        try await gate.waitForArrivals(1)
        let keyed = await sender.post(Numbered(number: 1), key: "elsewhere")
        #expect(await keyed.outcome.kind == .handled)  // not behind the parked post
        let unkeyed = await sender.post(Numbered(number: 2))
        #expect(unkeyed.finishedOutcome == nil)
        gate.open()
        _ = await parked.outcome
        #expect(await unkeyed.outcome.kind == .handled)
    }

    @Test("a relay's post with a key waits behind a responder's post with the same key")
    func relaysShareKeyLanes() async throws {
        let (system, gate, root) = Self.rootParkingPostZero()
        let desk = ScriptedResponder("desk", parent: root, system: system)
        let relay = Relay(entry: desk, label: "gateway")
        let parked = await desk.post(Numbered(number: 0), key: "customer-9")
        try await gate.waitForArrivals(1)
        let behind = await relay.post(Numbered(number: 1), key: "customer-9")
        let elsewhere = await relay.post(Numbered(number: 2))
        #expect(await elsewhere.outcome.kind == .handled)  // the relay's own lane is free
        #expect(behind.finishedOutcome == nil)
        gate.open()
        _ = await parked.outcome
        #expect(await behind.outcome.kind == .handled)
        #expect(await root.seen.compactMap { ($0.event as? Numbered)?.number } == [0, 2, 1])
    }
}

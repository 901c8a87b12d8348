@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

@Suite("Reentrancy and one-event-at-a-time responders")
struct ReentrancyTests {
    /// Waits until `count` events wait for `node`'s one-at-a-time lock.
    private func waitUntilWaiting(_ count: Int, at node: F.Node) async {
        await F.yield { ExclusiveHandling.shared.waitingCount(for: ObjectIdentifier(node)) >= count }
    }

    @Test("a reentrant responder runs a second event's handler while the first one is suspended")
    func reentrantByDefault() async {
        let gate = Gate()
        let node = F.Node("node", .park(gate), root: true)
        let first = Task { await node.send(F.Numbered(sender: 0, number: 0)) }
        let second = Task { await node.send(F.Numbered(sender: 1, number: 1)) }

        await gate.waitForArrivals(2)  // both handlers are inside, suspended at the gate
        #expect(await node.log.filter { $0.hasPrefix("start") }.count == 2)
        #expect(await node.log.filter { $0.hasPrefix("end") }.isEmpty)

        gate.open()
        #expect(await first.value.kind == .handled)
        #expect(await second.value.kind == .handled)
    }

    @Test("a one-at-a-time responder makes a second event wait until the first has finished")
    func secondEventWaits() async {
        let gate = Gate()
        let node = F.Node("node", .park(gate), root: true, exclusive: true)
        let first = Task { await node.send(F.Numbered(sender: 0, number: 0)) }
        await gate.waitForArrivals(1)
        let second = Task { await node.send(F.Numbered(sender: 0, number: 1)) }
        await waitUntilWaiting(1, at: node)

        #expect(gate.arrivals == 1)
        #expect(await node.log == ["start 0"])

        gate.open()
        #expect(await first.value.kind == .handled)
        #expect(await second.value.kind == .handled)
        #expect(await node.log == ["start 0", "end 0", "start 1", "end 1"])
    }

    @Test("events waiting for a one-at-a-time responder are handled in the order they arrived")
    func waitersInArrivalOrder() async {
        let gate = Gate()
        let node = F.Node("node", .park(gate), root: true, exclusive: true)
        var sends = [Task { await node.send(F.Numbered(sender: 0, number: 0)) }]
        await gate.waitForArrivals(1)
        for number in 1...5 {
            sends.append(Task { await node.send(F.Numbered(sender: number, number: number)) })
            await waitUntilWaiting(number, at: node)
        }
        gate.open()
        for send in sends { #expect(await send.value.kind == .handled) }
        #expect(await node.seen.map(\.number) == Array(0...5))
        #expect(await node.log == (0...5).flatMap { ["start \($0)", "end \($0)"] })
    }

    @Test(
        "a nested send from a one-at-a-time responder's own handler passes through it instead of waiting for itself"
    )
    func nestedSendPassesThrough() async throws {
        let node = F.Node("node", .resend, root: true, exclusive: true)
        let outcome = await node.send(F.Numbered(sender: 0, number: 0))
        #expect(outcome.kind == .handled)
        let nested = try #require(await node.nestedOutcomes.first)
        #expect(nested.kind == .handled)
        #expect(await node.seen.map(\.number) == [0, 1])
    }

    @Test(
        "an event cancelled while it waits for a one-at-a-time responder ends cancelled; its handler never runs"
    )
    func cancelWhileWaiting() async throws {
        let gate = Gate()
        let node = F.Node("node", .park(gate), root: true, exclusive: true)
        let first = Task { await node.send(F.Numbered(sender: 0, number: 0)) }
        await gate.waitForArrivals(1)
        let second = Task { await node.send(F.Numbered(sender: 0, number: 1)) }
        await waitUntilWaiting(1, at: node)
        second.cancel()

        let stop = try #require((await second.value).cancelledDetails)
        #expect(stop.responder == ResponderID(node))
        #expect(ExclusiveHandling.shared.waitingCount(for: ObjectIdentifier(node)) == 0)
        gate.open()
        #expect(await first.value.kind == .handled)
        #expect(await node.seen.map(\.number) == [0])
    }

    @Test("a one-at-a-time responder that is idle again holds no lock state")
    func lockStateIsReleased() async {
        let node = F.Node("node", .handle, root: true, exclusive: true)
        for number in 0..<3 {
            #expect(await node.send(F.Numbered(sender: 0, number: number)).kind == .handled)
        }
        #expect(ExclusiveHandling.shared.waitingCount(for: ObjectIdentifier(node)) == 0)
    }
}

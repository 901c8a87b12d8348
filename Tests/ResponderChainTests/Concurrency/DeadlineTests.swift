@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

@Suite("Deadlines")
struct DeadlineTests {
    @Test("a deadline that passes while a handler is parked ends the send timed out there")
    func deadlineWhileParked() async throws {
        let gate = Gate()  // never opened: only the deadline can end the wait
        // Long enough for the first two hops to begin even on a loaded machine; the test then
        // waits for the deadline itself, which is the behaviour under test.
        let top = F.Node("top", .handle, root: true)
        let parked = F.Node("parked", .park(gate), parent: top)
        let leaf = F.Node("leaf", .pass, parent: parked)

        let outcome = await leaf.send(
            F.Numbered(sender: 0, number: 0), options: SendOptions(timeout: .seconds(1)))

        let stop = try #require(outcome.timedOutDetails)
        #expect(stop.responder == ResponderID(parked))
        #expect(stop.hop == 2)
        #expect(stop.whileHandling)
        #expect(await parked.sawTaskCancelled)
        #expect(await parked.sawContextCancelled)
        #expect(await top.seen.isEmpty)
    }

    @Test("a deadline that has already passed stops the send before its first hop")
    func deadlinePassedBeforeFirstHop() async throws {
        let leaf = F.Node("leaf", .handle, root: true)
        let outcome = await leaf.send(
            F.Numbered(sender: 0, number: 0), options: SendOptions(deadline: .now - .seconds(1)))
        let stop = try #require(outcome.timedOutDetails)
        #expect(stop.hop == 1)
        #expect(!stop.whileHandling)
        #expect(await leaf.seen.isEmpty)
    }

    @Test("a posted event whose deadline passed while it was queued ends timed out before hop 1")
    func postedDeadlineCountsQueueTime() async throws {
        let gate = Gate()
        let parked = F.Node("parked", .park(gate), root: true)
        let first = await parked.post(F.Numbered(sender: 0, number: 0))
        let late = await parked.post(
            F.Numbered(sender: 0, number: 1), options: SendOptions(deadline: .now - .milliseconds(1)))
        await gate.waitForArrivals(1)
        gate.open()

        #expect(await first.outcome.kind == .handled)
        let stop = try #require((await late.outcome).timedOutDetails)
        #expect(stop.hop == 1)
        #expect(await parked.seen.map(\.number) == [0])
    }

    @Test("a deadline that is met changes nothing")
    func deadlineMet() async {
        let leaf = F.Node("leaf", .handle)
        let outcome = await leaf.send(
            F.Numbered(sender: 0, number: 0), options: SendOptions(timeout: .seconds(60)))
        #expect(outcome.kind == .handled)
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures
private typealias O = ObservationFixtures

@Suite("Observation buffering", .timeLimit(.minutes(1)))
struct ObservationBufferingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let buffering: ObservationStream<EventSystem.FinishedSend>.Buffering
        let kept: [Int]
        var testDescription: String { buffering.description }
    }

    @Test(
        "a full buffer drops by its policy and counts what it dropped; the sends never wait",
        arguments: [
            Case(buffering: .keepingNewest(3), kept: [7, 8, 9]),
            Case(buffering: .keepingOldest(3), kept: [0, 1, 2]),
            Case(buffering: .keepingNewest(10), kept: Array(0..<10)),
        ])
    func fullBufferDrops(_ test: Case) async throws {
        let system = EventSystem()
        let outcomes = system.observeOutcomes(buffering: test.buffering)
        let node = F.Node("node", .handle, root: true, system: system)
        for number in 0..<10 {
            _ = await node.send(F.Numbered(sender: 0, number: number))
        }

        try #require(outcomes._unreadCount == test.kept.count)
        #expect(outcomes.droppedCount == 10 - test.kept.count)
        #expect(await O.read(test.kept.count, from: outcomes).compactMap(\.number) == test.kept)

        // Once read, the buffer has room again.
        _ = await node.send(F.Numbered(sender: 0, number: 10))
        #expect(await O.read(1, from: outcomes).compactMap(\.number) == [10])
        #expect(outcomes.droppedCount == 10 - test.kept.count)
    }

    @Test("a consumer stuck in its loop body does not hold up routing")
    func stuckConsumerDoesNotBlock() async throws {
        let system = EventSystem()
        let outcomes = system.observeOutcomes(buffering: .keepingOldest(4))
        let gate = Gate()
        let consumer = Task {
            for await _ in outcomes {
                try? await gate.pass()
            }
        }
        let node = F.Node("node", .handle, root: true, system: system)
        _ = await node.send(F.Numbered(sender: 0, number: 0))
        try await gate.waitForArrivals(1)

        for number in 1...1_000 {
            #expect(await node.send(F.Numbered(sender: 0, number: number)).isHandled)
        }
        #expect(outcomes._unreadCount == 4)
        #expect(outcomes.droppedCount == 996)
        consumer.cancel()
        gate.open()
        await consumer.value
    }

    @Test("a buffer with room for fewer than one element is refused with a clear message")
    func capacityBelowOneIsRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = ObservationStream<DeadLetter>.Buffering.keepingOldest(0)
        }
    }
}

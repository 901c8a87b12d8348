import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures
private typealias O = ObservationFixtures

@Suite("Observation consumers", .timeLimit(.minutes(1)))
struct ObservationConsumerTests {
    @Test("every stream receives every element, and all streams in the same order, under concurrent sends")
    func manyConsumersSameOrder() async throws {
        let system = EventSystem()
        let streams = (0..<3).map { _ in system.observeOutcomes(buffering: .keepingOldest(1_000)) }
        let deadLetters = system.observeDeadLetters(buffering: .keepingOldest(1_000))
        let top = F.Node("top", .pass, root: true, system: system)
        let senders = 4
        let perSender = 50

        let sent = await withTaskGroup(of: [EventID].self) { group in
            for sender in 0..<senders {
                let leaf = F.Node("leaf\(sender)", .pass, parent: top, system: system)
                group.addTask {
                    var ids: [EventID] = []
                    for number in 0..<perSender {
                        ids.append(await leaf.send(F.Numbered(sender: sender, number: number)).eventID)
                    }
                    return ids
                }
            }
            var all: [[EventID]] = []
            for await ids in group { all.append(ids) }
            return all
        }

        let total = senders * perSender
        var orders: [[EventID]] = []
        for stream in streams {
            try #require(stream._unreadCount == total)
            orders.append(await O.read(total, from: stream).map(\.outcome.eventID))
        }
        #expect(Set(orders[0]) == Set(sent.joined()))
        #expect(orders[1] == orders[0])
        #expect(orders[2] == orders[0])
        // One sender's sends keep their order among the others'.
        for ids in sent {
            let positions = ids.compactMap { orders[0].firstIndex(of: $0) }
            #expect(positions == positions.sorted())
        }
        // Every send was unhandled: the dead-letter stream saw them all, each sender's in order.
        // (Its order among the outcome streams' is not promised: the kinds are published apart,
        // so two sends ending at once may be in one order there and the other here.)
        try #require(deadLetters._unreadCount == total)
        let letters = await O.read(total, from: deadLetters).map(\.outcome.eventID)
        #expect(Set(letters) == Set(orders[0]))
        for ids in sent {
            let positions = ids.compactMap { letters.firstIndex(of: $0) }
            #expect(positions == positions.sorted())
        }
    }

    @Test("a waiting consumer is woken by the next send")
    func waitingConsumerWakes() async throws {
        let system = EventSystem()
        let outcomes = system.observeOutcomes()
        async let first = O.read(1, from: outcomes).first?.outcome.kind
        let chain = makeChain([.handle], system: system)
        _ = await chain[0].send(Ping())
        #expect(await first == .handled)
    }

    @Test(
        "a cancelled consumer's loop ends, its stream closes and receives nothing more, and routing goes on",
        arguments: [false, true])
    func cancelledConsumer(cancelWhileWaiting: Bool) async throws {
        let system = EventSystem()
        let outcomes = system.observeOutcomes()
        let started = Gate()
        let consumer = Task {
            if !cancelWhileWaiting { withUnsafeCurrentTask { $0?.cancel() } }
            try? await started.pass()
            return await O.readToEnd(outcomes).count
        }
        if cancelWhileWaiting {
            try await started.waitForArrivals(1)
            started.open()
            consumer.cancel()
        } else {
            started.open()
        }
        #expect(await consumer.value == 0)
        #expect(system._openObservationStreams == 0)

        let chain = makeChain([.handle], system: system)
        #expect(await chain[0].send(Ping()).isHandled)
        #expect(outcomes._unreadCount == 0)
    }

    @Test("a stream that nobody holds any longer closes")
    func unheldStreamCloses() async {
        let system = EventSystem()
        func openAndDrop() {
            let outcomes = system.observeOutcomes()
            let deadLetters = system.observeDeadLetters()
            #expect(system._openObservationStreams == 2)
            _ = (outcomes, deadLetters)
        }
        openAndDrop()
        #expect(system._openObservationStreams == 0)
    }
}

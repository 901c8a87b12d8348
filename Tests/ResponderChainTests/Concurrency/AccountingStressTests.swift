@testable import ResponderChain
import ResponderChainTesting
import Synchronization
import Testing

private typealias F = ConcurrencyFixtures

@Suite("Accounting under stress")
struct AccountingStressTests {
    /// 64 senders × 2,000 events over a tree of 200 responders, while another task re-links random
    /// responders: to nothing (detached), to any other (cycles included), or to themselves.
    @Test(
        "every send and post ends in exactly one outcome and no handler sees an event twice, while the tree is re-linked",
        .timeLimit(.minutes(5)))
    func accountingWhileRelinking() async throws {
        let senders = 64
        let eventsPerSender = 2_000
        let counter = F.OutcomeCounter()
        let system = EventSystem(tracer: counter)
        var random = F.SplitMix(seed: 2026)

        let root = F.Node("root", .handleAndContinue, root: true, system: system)
        var nodes = [root]
        for index in 1..<200 {
            let behavior: F.Behavior =
                index % 7 == 0 ? .handleAndContinue : .suspendRandomly(seed: UInt64(index))
            let parent = nodes[Int(random.next() % UInt64(nodes.count))]
            nodes.append(F.Node("n\(index)", behavior, parent: parent, system: system))
        }

        let done = Atomic<Bool>(false)
        let relinks = Atomic<Int>(0)
        let relinker = Task { [nodes] in
            var random = F.SplitMix(seed: 7)
            while !done.load(ordering: .relaxed) {
                let node = nodes[1 + Int(random.next() % UInt64(nodes.count - 1))]
                switch random.next() % 10 {
                case 0: await node.link(to: nil)  // detached
                case 1: await node.link(to: node)  // a cycle of one
                default: await node.link(to: nodes[Int(random.next() % UInt64(nodes.count))])
                }
                relinks.add(1, ordering: .relaxed)
                await Task.yield()
            }
        }

        let returned = await withTaskGroup(of: [Outcome.Kind].self) { group in
            for sender in 0..<senders {
                group.addTask { [nodes] in
                    var random = F.SplitMix(seed: UInt64(sender) + 100)
                    var kinds: [Outcome.Kind] = []
                    var tickets: [Ticket] = []
                    for number in 0..<eventsPerSender {
                        let node = nodes[Int(random.next() % UInt64(nodes.count))]
                        let event = F.Numbered(sender: sender, number: number)
                        if sender.isMultiple(of: 2) {
                            kinds.append(await node.send(event).kind)
                        } else {
                            tickets.append(await node.post(event))
                        }
                    }
                    for ticket in tickets { kinds.append(await ticket.outcome.kind) }
                    return kinds
                }
            }
            var all: [Outcome.Kind] = []
            for await kinds in group { all += kinds }
            return all
        }
        done.store(true, ordering: .relaxed)
        await relinker.value

        let total = senders * eventsPerSender
        #expect(returned.count == total)
        #expect(counter.total == total)
        var duplicates = 0
        for node in nodes { duplicates += await node.duplicates }
        #expect(duplicates == 0)
        #expect(relinks.load(ordering: .relaxed) > 0)
        #expect(system.outstandingPosts == 0)
        // The re-linking really produced broken chains and cycles, not only clean deliveries.
        #expect(counter.count(.interrupted) > 0)
        #expect(counter.count(.cycleDetected) > 0)
    }
}

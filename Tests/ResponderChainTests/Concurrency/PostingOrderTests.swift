@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

@Suite("Posting order")
struct PostingOrderTests {
    @Test("10,000 events posted by one sender reach every responder in post order, though handlers suspend")
    func oneSenderKeepsPostOrder() async throws {
        let count = 10_000
        let top = F.Node("top", .handle, root: true)
        let nodes = F.chain(4, below: top) { .suspendRandomly(seed: UInt64($0) + 1) }
        var tickets: [Ticket] = []
        for number in 0..<count {
            tickets.append(await nodes[0].post(F.Numbered(sender: 0, number: number)))
        }
        for ticket in tickets {
            #expect(await ticket.outcome.kind == .handled)
        }
        for node in nodes + [top] {
            #expect(await node.seen.map(\.number) == Array(0..<count), "at \(node.name)")
        }
    }

    @Test("two senders posting at once: each sender's own order holds at every responder")
    func twoSendersKeepTheirOwnOrder() async {
        let count = 2_000
        let top = F.Node("top", .handle, root: true)
        let shared = F.chain(3, below: top) { .suspendRandomly(seed: UInt64($0) + 7) }
        let senders = (0..<2).map {
            F.Node("sender\($0)", .suspendRandomly(seed: UInt64($0) + 99), parent: shared[0])
        }

        await withTaskGroup(of: Void.self) { group in
            for (index, sender) in senders.enumerated() {
                group.addTask {
                    var last: Ticket?
                    for number in 0..<count {
                        last = await sender.post(F.Numbered(sender: index, number: number))
                    }
                    _ = await last?.outcome
                }
            }
        }

        for node in shared + [top] {
            let seen = await node.seen
            #expect(seen.count == 2 * count)
            for sender in 0..<2 {
                #expect(
                    seen.filter { $0.sender == sender }.map(\.number) == Array(0..<count), "at \(node.name)")
            }
        }
    }

    @Test("a ticket gives the same outcome an awaited send would, with the id taken at post time")
    func ticketOutcomeMatchesSend() async throws {
        let top = F.Node("top", .handleAndContinue, root: true)
        let middle = F.Node("middle", .handle, parent: top)
        let leaf = F.Node("leaf", .pass, parent: middle)

        let ticket = await leaf.post(F.Numbered(sender: 0, number: 0))
        let posted = await ticket.outcome
        let awaited = await leaf.send(F.Numbered(sender: 0, number: 1))

        let handled = try #require(posted.handledDetails)
        #expect(posted.eventID == ticket.eventID)
        #expect(handled.handlers == [ResponderID(middle)])
        #expect(handled.hops == 2)
        #expect(awaited.handlers == handled.handlers)
        #expect(awaited.hops == handled.hops)
        #expect(ticket.finishedOutcome?.eventID == ticket.eventID)
        #expect(await top.seen.isEmpty)
    }

    @Test("a dropped ticket's event is still delivered, traced and dead-lettered")
    func droppedTicketIsNotLost() async throws {
        let tracer = RecordingTracer()
        let letters = DeadLetterRecorder()
        let orphan = F.Node("orphan")  // not a root, no next: interrupted
        let options = SendOptions(tracer: tracer, deadLetters: letters.sink)

        await orphan.post(F.Numbered(sender: 0, number: 0), options: options)  // ticket dropped
        // Posts of one sender finish in order: once the second is done, so is the first.
        _ = await orphan.post(F.Numbered(sender: 0, number: 1), options: options).outcome

        #expect(tracer.outcomes.map(\.kind) == [.interrupted, .interrupted])
        #expect(letters.outcomes.map(\.kind) == [.interrupted, .interrupted])
        #expect(await orphan.seen.map(\.number) == [0, 1])
    }

    @Test("a relay is one sender: its posts arrive in order, with the relay as their source")
    func relayPostsInOrder() async {
        let top = F.Node("top", .handle, root: true)
        let entry = F.Node("entry", .suspendRandomly(seed: 3), parent: top)
        let relay = Relay(entry: entry, label: "Webhook")
        var last: Ticket?
        for number in 0..<500 {
            last = await relay.post(F.Numbered(sender: 0, number: number))
        }
        #expect(await last?.outcome.kind == .handled)
        #expect(await top.seen.map(\.number) == Array(0..<500))
    }

    @Test("posting through a relay whose entry is gone ends interrupted, naming the relay")
    func relayWithoutEntry() async {
        var entry: F.Node? = F.Node("entry")
        let relay = Relay(entry: entry!, label: "Webhook")
        entry = nil
        let outcome = await relay.post(F.Numbered(sender: 0, number: 0)).outcome
        #expect(outcome.kind == .interrupted)
        #expect(outcome.interruptedDetails?.lastReached.label == "relay(Webhook)")
    }
}

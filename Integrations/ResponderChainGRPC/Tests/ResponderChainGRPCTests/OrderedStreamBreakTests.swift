import GRPCCore
import RemoteOrders
import ResponderChain
@testable import ResponderChainGRPC
import ResponderChainTesting
import Synchronization
import Testing

@Suite("A stream of posts that breaks, at once or under a flood", .timeLimit(.minutes(2)))
struct OrderedStreamBreakTests {
    @Test(
        "a stream that breaks as soon as it is started still holds the post that opened it, and fails it typed; the sender's next post opens a new one"
    )
    func streamBrokenAtOnce() async throws {
        // The stream's run ends before `place` returns: what a run loop does when the call finds
        // no connection, or a server stopping, before the post is written.
        let streams = OrderedStreams { _, stream in
            stream.end(with: RemoteLinkError.unreachable("no connection"))
        }
        let sender = RemoteSenderKey(value: 1)
        for _ in 0..<2 {
            let (stream, sequence) = try #require(streams.place([1, 2, 3], for: sender))
            #expect(sequence == 1)
            await #expect(throws: RemoteLinkError.unreachable("no connection")) {
                try await stream.answer(to: sequence, within: .seconds(30), on: ContinuousClock())
            }
        }
    }

    @Test(
        "four senders flood a server with posts on their streams: whether the server stops gracefully midway or nothing listens, each post ends once, handled, refused, unreachable or lost; none runs twice, none that ran is called unreachable or refused",
        arguments: [Flood.serverStopsMidway, .nothingListens])
    func flood(_ flood: Flood) async throws {
        let arrived = Gate()
        arrived.open()  // open: it counts the posts that reached the other side
        let chain = SplitChain(back: [.park(arrived), .handle])
        let entries = RemoteEntries(["orders": chain.b[0]], registry: ordersRegistry())
        let server = RemoteChainServer(entries: entries, host: "127.0.0.1", port: 0)
        let perSender = flood == .serverStopsMidway ? 1_000 : 200

        try await withThrowingDiscardingTaskGroup { group in
            let port: Int
            if flood == .serverStopsMidway {
                group.addTask { try await server.run() }
                port = try await server.listeningPort
            } else {
                port = 1  // nothing listens there
            }
            let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: port)
            try await withLink(over: transport, in: chain.front, checkingRegistry: false) { link in
                let senders = (0..<4).map { Station("s\($0)", .pass, next: link, system: chain.front) }

                let outcomes = try await withThrowingTaskGroup(of: [(String, Outcome)].self) { posting in
                    for (index, sender) in senders.enumerated() {
                        posting.addTask {
                            var tickets: [(String, Ticket)] = []
                            for number in 0..<perSender {
                                let sku = "s\(index)-\(number)"
                                tickets.append((sku, await sender.post(PlaceOrder(sku: sku))))
                            }
                            var ended: [(String, Outcome)] = []
                            for (sku, ticket) in tickets { ended.append((sku, await ticket.outcome)) }
                            return ended
                        }
                    }
                    if flood == .serverStopsMidway {
                        try await arrived.waitForArrivals(perSender)
                        server.beginGracefulShutdown()
                    }
                    var all: [(String, Outcome)] = []
                    for try await ended in posting { all += ended }
                    return all
                }

                let ran = await chain.b[0].seen.map { String($0.prefix { $0 != " " }) }
                #expect(Set(ran).count == ran.count, "an event ran twice there")
                let ranThere = Set(ran)
                #expect(outcomes.count == 4 * perSender)
                #expect(Set(outcomes.map(\.0)).count == 4 * perSender, "a post ended twice")
                var counts: [String: Int] = [:]
                for (sku, outcome) in outcomes {
                    let kind: String
                    if outcome.isHandled {
                        kind = "handled"
                        #expect(ranThere.contains(sku), "\(sku) handled but never ran there")
                    } else {
                        switch outcome.interruptedDetails?.cause as? RemoteLinkError {
                        case .refused(.shuttingDown):
                            kind = "refused"
                            #expect(!ranThere.contains(sku), "\(sku) refused but ran there")
                        case .unreachable:
                            kind = "unreachable"
                            #expect(!ranThere.contains(sku), "\(sku) unreachable but ran there")
                        case .lost:
                            kind = "lost"
                        default:
                            kind = "other"
                            Issue.record("\(sku) ended \(outcome)")
                        }
                    }
                    counts[kind, default: 0] += 1
                }
                switch flood {
                case .serverStopsMidway: #expect(counts["handled", default: 0] >= perSender, "\(counts)")
                case .nothingListens: #expect(counts == ["unreachable": 4 * perSender], "\(counts)")
                }
                if flood == .serverStopsMidway { server.beginGracefulShutdown() }
            }
        }
    }

    enum Flood: Sendable, CustomTestStringConvertible {
        case serverStopsMidway
        case nothingListens

        var testDescription: String {
            self == .serverStopsMidway ? "the server stops gracefully midway" : "nothing listens"
        }
    }
}

import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import Testing

@Suite("One sender's posts in order on one stream over HTTP/2", .timeLimit(.minutes(1)))
struct OrderedStreamTests {
    @Test(
        "a sender's next posts go out while its first waits there: its lane is released once the post is on the stream"
    )
    func lanesAreReleasedOnceOnTheStream() async throws {
        let there = Gate()  // the backend parks the first order until it opens
        let here = Gate()
        here.open()  // open: it only counts the orders that pass the sender
        let chain = SplitChain(back: [.handleSlowAfter(there)])
        try await Self.withLink(to: chain) { link, _ in
            let sender = Station("sender", .park(here), next: link, system: chain.front)
            var tickets = [await sender.post(PlaceOrder(sku: "slow-0"))]
            try await there.waitForArrivals(1)
            for number in 1...3 { tickets.append(await sender.post(PlaceOrder(sku: "fast-\(number)"))) }
            // Each passed the sender, so each went out behind the first, parked there.
            try await here.waitForArrivals(4)
            #expect(tickets.allSatisfy { $0.finishedOutcome == nil })

            there.open()
            for ticket in tickets {
                let outcome = await ticket.outcome
                #expect(outcome.handledDetails?.stoppedAt.label == "b0", "\(outcome)")
            }
            #expect(
                await chain.b[0].seen == ["slow-0", "fast-1", "fast-2", "fast-3"].map { "\($0) customer=-" })
        }
    }

    @Test(
        "1,000 posts of one sender reach the other process in post order, each ticket with its remote outcome"
    )
    func postOrderOnTheStream() async throws {
        let chain = SplitChain(back: [.reserve(1), .handle])
        try await Self.withLink(to: chain) { link, _ in
            let sender = Station("sender", .pass, next: link, system: chain.front)
            var tickets: [Ticket] = []
            for number in 0..<1_000 { tickets.append(await sender.post(PlaceOrder(sku: "\(number)"))) }
            for ticket in tickets {
                let outcome = await ticket.outcome
                #expect(outcome.handledDetails?.info[Reservation.self] == 1, "\(outcome)")
            }
            #expect(await chain.b[0].seen == (0..<1_000).map { "\($0) customer=-" })
            #expect(await chain.b[1].seen.count == 1_000)
        }
    }

    @Test(
        "senders posting in bursts open and close a stream per burst, hundreds of times on one connection, and every post ends handled"
    )
    func streamsOpenAndCloseWithoutResets() async throws {
        // Each burst's streams close once answered. Were they reset rather than closed, the
        // server would close the connection after a few hundred resets, and the posts on it
        // would end lost.
        let chain = SplitChain(back: [.handle])
        try await Self.withLink(to: chain) { link, _ in
            let senders = (0..<4).map { Station("s\($0)", .pass, next: link, system: chain.front) }
            var notHandled: [Outcome] = []
            for burst in 0..<300 {
                var tickets: [Ticket] = []
                for number in 0...(burst % 7) {
                    for sender in senders { tickets.append(await sender.post(PlaceOrder(sku: "\(number)"))) }
                }
                for ticket in tickets {
                    let outcome = await ticket.outcome
                    if !outcome.isHandled { notHandled.append(outcome) }
                }
            }
            #expect(notHandled.isEmpty, "\(notHandled.count) not handled, the first: \(notHandled.prefix(1))")
        }
    }

    @Test(
        "cancelling a post's ticket while it waits there gives it up on the stream: cancelled there by its ticket, and here; the sender's next post still crosses"
    )
    func givingUpOnePost() async throws {
        let there = Gate()
        let chain = SplitChain(back: [.handleSlowAfter(there)])
        let backOutcomes = chain.back.observeOutcomes()
        try await Self.withLink(to: chain) { link, _ in
            let sender = Station("sender", .pass, next: link, system: chain.front)
            let parked = await sender.post(PlaceOrder(sku: "slow-0"))
            try await there.waitForArrivals(1)
            parked.cancel()
            #expect((await parked.outcome).cancelledDetails != nil)

            var thereOutcome: Outcome?
            for await finished in backOutcomes {
                thereOutcome = finished.outcome
                break
            }
            #expect(
                thereOutcome?.cancelledDetails?.reason == .ticketCancelled,
                "\(String(describing: thereOutcome))")
            #expect(await sender.post(PlaceOrder(sku: "fast-1")).outcome.isHandled)
        }
    }

    @Test(
        "once the server's graceful shutdown has begun, posts that reach it on a stream are refused, typed, and the post under way there still ends handled"
    )
    func serverShutdownRefusesLaterPosts() async throws {
        let there = Gate()
        let chain = SplitChain(back: [.handleSlowAfter(there)])
        try await Self.withLink(to: chain) { link, server in
            let sender = Station("sender", .pass, next: link, system: chain.front)

            let underWay = await sender.post(PlaceOrder(sku: "slow-0"))
            try await there.waitForArrivals(1)
            server.beginGracefulShutdown()
            let later = await sender.post(PlaceOrder(sku: "fast-1"))
            let refused = try #require((await later.outcome).interruptedDetails)
            guard case .refused(.shuttingDown) = refused.cause as? RemoteLinkError else {
                Issue.record("expected refused, shutting down; got \(refused)")
                there.open()
                return
            }
            there.open()
            #expect((await underWay.outcome).isHandled)
            #expect(await chain.b[0].seen == ["slow-0 customer=-"])
        }
    }

    /// Runs `body` with a link over HTTP/2 to `chain`'s back entry, served by a
    /// `RemoteChainServer` on 127.0.0.1; both end when `body` returns.
    private static func withLink(
        to chain: SplitChain, _ body: (RemoteLink, RemoteChainServer) async throws -> Void
    ) async throws {
        let entries = RemoteEntries(["orders": chain.b[0]], registry: ordersRegistry())
        let server = RemoteChainServer(entries: entries, host: "127.0.0.1", port: 0)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { try await server.run() }
            let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: try await server.listeningPort)
            group.addTask { try await transport.run() }
            defer {
                transport.shutDown()
                server.beginGracefulShutdown()
            }
            try await body(
                RemoteLink(
                    entry: "orders", transport: transport, registry: ordersRegistry(), system: chain.front),
                server)
        }
    }
}

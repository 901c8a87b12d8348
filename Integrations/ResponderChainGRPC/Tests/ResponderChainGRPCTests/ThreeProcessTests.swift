import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import Testing

/// The gateway is the test; the middle is a `remote-chain-test-server` process launched with
/// `--forward-to`, whose entry is a link to the last process, another `remote-chain-test-server`
/// (see ``BackendProcess``): its chain is `desk → stock`, the desk parking orders whose sku
/// starts with `slow` (saying `parked <sku>`), the stock handling the others.
@Suite("A chain across three processes", .timeLimit(.minutes(2)))
struct ThreeProcessTests {
    @Test(
        "a sender's awaited sends through a middle process stay calls of their own end to end: they reach the last process and end handled there while the sender's posts wait parked"
    )
    func awaitedSendsPassParkedPosts() async throws {
        let front = EventSystem()
        let last = try await BackendProcess.launch()
        defer { last.kill() }
        let middle = try await BackendProcess.launch(arguments: ["--forward-to", "\(last.port)"])
        defer { middle.kill() }

        try await withLink(over: GRPCRemoteTransport(host: "127.0.0.1", port: middle.port), in: front) {
            link in
            let sender = Station("sender", .pass, next: link, system: front)
            // The first post parks in the last process; the second waits behind it there, in order.
            let posts = [
                await sender.post(PlaceOrder(sku: "slow-p0")), await sender.post(PlaceOrder(sku: "ok-p1")),
            ]
            try await last.line { $0 == "parked slow-p0" }

            // The same sender's awaited sends: each its own call onward from the middle, so none
            // waits behind the parked post (had they been carried on the posts' stream, each
            // would end timed out at its deadline instead).
            let sends = (0..<3).map { number in
                Task {
                    await sender.send(
                        PlaceOrder(sku: "ok-s\(number)"), options: SendOptions(timeout: .seconds(10)))
                }
            }
            for send in sends {
                let outcome = await send.value
                #expect(outcome.handledDetails?.stoppedAt.label == "stock", "\(outcome)")
            }
            #expect(posts.allSatisfy { $0.finishedOutcome == nil })

            // Giving the parked post up crosses both boundaries; the post behind it then runs.
            posts[0].cancel()
            #expect(await posts[0].outcome.cancelledDetails != nil)
            let after = await posts[1].outcome
            #expect(after.handledDetails?.stoppedAt.label == "stock", "\(after)")
        }
        await middle.killAndWait()
        await last.killAndWait()
    }
}

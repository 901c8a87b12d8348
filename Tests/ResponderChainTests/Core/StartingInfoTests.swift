import ResponderChain
import ResponderChainTesting
import Testing

private enum RequestID: InfoKey { typealias Value = String }

extension CoreSuites {
    @Suite("Starting information")
    struct StartingInfoTests {
        @Test("information the sender attaches is seen from hop 1 and travels with what hops add")
        func seenFromTheFirstHop() async throws {
            let chain = makeChain([.tag("low", then: .pass), .pass, .handle])
            var options = SendOptions()
            options.info[RequestID.self] = "r-1"

            let outcome = await chain[0].send(Ping(), options: options)

            let handled = try #require(outcome.handledDetails)
            #expect(handled.info[RequestID.self] == "r-1")
            #expect(handled.info[Tag.self] == "low")
            let firstHop = try #require(await chain[0].sightings.first)
            #expect(firstHop.hop == 1)
            #expect(await chain[0].startingInfo == ["r-1"])
            #expect(await chain[2].startingInfo == ["r-1"])
        }

        @Test("the sender's options are unchanged by what the hops add")
        func callersCopyUnchanged() async {
            let chain = makeChain([.tag("low", then: .pass), .handle])
            var options = SendOptions()
            options.info[RequestID.self] = "r-2"

            _ = await chain[0].send(Ping(), options: options)

            #expect(options.info.count == 1)
            #expect(options.info[Tag.self] == nil)
        }

        @Test(
            "posts and relayed sends carry the starting information too",
            arguments: ["post", "relay"])
        func postsAndRelays(way: String) async throws {
            let chain = makeChain([.pass, .handle])
            var options = SendOptions()
            options.info[RequestID.self] = way

            let outcome: Outcome
            if way == "post" {
                outcome = await chain[0].post(Ping(), options: options).outcome
            } else {
                outcome = await Relay(entry: chain[0], label: "Feed").send(Ping(), options: options)
            }

            #expect(try #require(outcome.handledDetails).info[RequestID.self] == way)
            #expect(await chain[1].startingInfo == [way])
        }
    }
}

extension Station {
    /// The request identifiers the station's handler saw, in order.
    fileprivate var startingInfo: [String] {
        sightings.compactMap { $0.printedInfo["RequestID"] }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Path order")
    struct PathOrderTests {
        @Test("an event visits a 5-deep chain from the sender up to the root, one hop each, in order")
        func visitsEveryResponderInOrder() async throws {
            let (journal, chain) = journaledChain(Array(repeating: .pass, count: 5))

            let outcome = await chain[0].send(Ping())

            #expect(journal.names == ["s0", "s1", "s2", "s3", "s4"])
            for (index, station) in chain.enumerated() {
                #expect(await station.sightings.map(\.hop) == [index + 1])
            }
            let unhandled = try #require(outcome.unhandledDetails)
            #expect(unhandled.root == ResponderID(chain[4]))
            #expect(unhandled.hops == 5)
        }

        @Test("an event starting at next skips the sender's handlers and visits the rest in order")
        func startingAtNextSkipsTheSender() async throws {
            let (journal, chain) = journaledChain(Array(repeating: .pass, count: 5))

            let outcome = await chain[0].send(Ping(), options: .startingAtNext)

            #expect(journal.names == ["s1", "s2", "s3", "s4"])
            #expect(await chain[0].sightings.isEmpty)
            #expect(await chain[1].sightings.map(\.hop) == [1])
            #expect(outcome.kind == .unhandled)
            #expect(outcome.hops == 4)
        }

        @Test("an event starting at the sender is handled by the sender itself when it handles it")
        func startingAtSenderLetsTheSenderHandle() async throws {
            let chain = makeChain([.handle, .handle])

            let atSender = await chain[0].send(Ping())
            let atNext = await chain[0].send(Ping(), options: .startingAtNext)

            #expect(try #require(atSender.handledDetails).stoppedAt == ResponderID(chain[0]))
            #expect(try #require(atNext.handledDetails).stoppedAt == ResponderID(chain[1]))
            #expect(atNext.hops == 1)
        }

        @Test("starting at next from a root with no next ends unhandled at the sender without a hop")
        func startingAtNextFromALoneRoot() async throws {
            let root = Station(named: "root", .handle, root: true)

            let outcome = await root.send(Ping(), options: .startingAtNext)

            let unhandled = try #require(outcome.unhandledDetails)
            #expect(unhandled.root == ResponderID(root))
            #expect(unhandled.hops == 0)
            #expect(await root.sightings.isEmpty)
        }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Decoration")
    struct DecorationTests {
        @Test("information added by a hop is seen by every hop above it and accumulates")
        func accumulatesUpward() async throws {
            let chain = makeChain([
                .appendTrail(then: .pass), .appendTrail(then: .handledAndContinue), .appendTrail(then: .pass),
                .pass,
            ])

            let outcome = await chain[0].send(Ping())

            #expect(await chain[0].sightings.map(\.trail) == [nil])
            #expect(await chain[1].sightings.map(\.trail) == [["s0"]])
            #expect(await chain[2].sightings.map(\.trail) == [["s0", "s1"]])
            #expect(await chain[3].sightings.map(\.trail) == [["s0", "s1", "s2"]])
            #expect(outcome.info[Trail.self] == ["s0", "s1", "s2"])
        }

        @Test(
            "a hop that only adds information and passes is no handler: the send ends unhandled, with the information, and is dead-lettered"
        )
        func decoratingAndPassingIsNotHandling() async throws {
            let deadLetters = DeadLetterRecorder()
            let chain = makeChain(
                [.tag("validated", then: .pass), .appendTrail(then: .pass), .pass], system: deadLetters.system
            )

            let outcome = await chain[0].send(Ping())

            let unhandled = try #require(outcome.unhandledDetails)
            #expect(unhandled.root == ResponderID(chain[2]))
            #expect(outcome.handlers.isEmpty)
            #expect(await chain[2].sightings.map(\.tag) == ["validated"])
            #expect(outcome.info[Tag.self] == "validated")
            #expect(outcome.info[Trail.self] == ["s1"])
            #expect(deadLetters.outcomes.map(\.kind) == [.unhandled])
        }

        @Test("the same hop returning handled-and-continue is a handler: the send ends handled by it")
        func decoratingAndContinuingIsHandling() async throws {
            let chain = makeChain([.tag("validated", then: .handledAndContinue), .pass, .pass])

            let outcome = await chain[0].send(Ping())

            let handled = try #require(outcome.handledDetails)
            #expect(handled.handlers == [ResponderID(chain[0])])
            #expect(handled.stoppedAt == ResponderID(chain[2]))
            #expect(handled.info[Tag.self] == "validated")
        }

        @Test("on a key collision the later hop wins")
        func laterHopWins() async throws {
            let chain = makeChain([.tag("low", then: .pass), .tag("high", then: .pass), .pass])

            let outcome = await chain[0].send(Ping())

            #expect(await chain[1].sightings.map(\.tag) == ["low"])
            #expect(await chain[2].sightings.map(\.tag) == ["high"])
            #expect(outcome.info[Tag.self] == "high")
            #expect(outcome.info.count == 1)
        }

        @Test("the sender's copy never changes: information added by one send is not seen by the next")
        func sendersCopyUnchanged() async throws {
            let chain = makeChain([.tag("added", then: .pass), .pass])

            let first = await chain[0].send(Ping())
            let second = await chain[0].send(Ping())

            #expect(first.info[Tag.self] == "added")
            #expect(await chain[0].sightings.map(\.tag) == [nil, nil])
            #expect(await chain[1].sightings.map(\.tag) == ["added", "added"])
            #expect(second.info[Tag.self] == "added")
        }

        @Test("information added by the hop that stops the event is in the outcome")
        func stoppingHopsDecorationIsVisible() async throws {
            let chain = makeChain([.appendTrail(then: .pass), .tag("stopper", then: .handled), .pass])

            let outcome = await chain[0].send(Ping())

            let handled = try #require(outcome.handledDetails)
            #expect(handled.stoppedAt == ResponderID(chain[1]))
            #expect(handled.info[Tag.self] == "stopper")
            #expect(handled.info[Trail.self] == ["s0"])
            #expect(handled.info.keyNames == ["Tag", "Trail"])
        }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Dispositions")
    struct DispositionTests {
        @Test("a handler that returns handled stops the event at its responder")
        func handledStops() async throws {
            let (journal, chain) = journaledChain([.pass, .handle, .handle, .pass])

            let outcome = await chain[0].send(Ping())

            let handled = try #require(outcome.handledDetails)
            #expect(handled.stoppedAt == ResponderID(chain[1]))
            #expect(handled.handlers == [ResponderID(chain[1])])
            #expect(handled.hops == 2)
            #expect(journal.names == ["s0", "s1"])
        }

        @Test("handled and continue counts the responder as a handler and lets the event go on to the root")
        func handledAndContinueGoesOn() async throws {
            let (journal, chain) = journaledChain([.handleAndContinue, .pass, .pass])

            let outcome = await chain[0].send(Ping())

            let handled = try #require(outcome.handledDetails)
            #expect(handled.handlers == [ResponderID(chain[0])])
            #expect(handled.stoppedAt == ResponderID(chain[2]))
            #expect(handled.hops == 3)
            #expect(journal.names == ["s0", "s1", "s2"])
        }

        @Test("several responders handling one event are listed in the order they handled it")
        func severalHandlersInOrder() async throws {
            let (journal, chain) = journaledChain([
                .handleAndContinue, .pass, .handleAndContinue, .handle, .handle,
            ])

            let outcome = await chain[0].send(Ping())

            let handled = try #require(outcome.handledDetails)
            #expect(
                handled.handlers == [ResponderID(chain[0]), ResponderID(chain[2]), ResponderID(chain[3])])
            #expect(handled.stoppedAt == ResponderID(chain[3]))
            #expect(handled.hops == 4)
            #expect(journal.names == ["s0", "s1", "s2", "s3"])
        }

        @Test("an event every responder passes ends unhandled at the root")
        func allPassIsUnhandled() async throws {
            let chain = makeChain([.pass, .pass, .pass])

            let outcome = await chain[0].send(Ping())

            let unhandled = try #require(outcome.unhandledDetails)
            #expect(unhandled.root == ResponderID(chain[2]))
            #expect(unhandled.hops == 3)
            #expect(outcome.handlers.isEmpty)
        }

        @Test("a responder whose table has only other event types passes the event on")
        func otherTypesPass() async throws {
            let sink = RootSink(.handled)
            let doorman = Doorman(parent: sink)
            let leaf = Station(named: "leaf", .pass, parent: doorman)

            let ping = await leaf.send(Ping())
            let knock = await leaf.send(Knock())

            let pinged = try #require(ping.handledDetails)
            #expect(pinged.stoppedAt == ResponderID(sink))
            #expect(pinged.hops == 3)
            #expect(try #require(knock.handledDetails).stoppedAt == ResponderID(doorman))
            #expect(await doorman.knocks == 1)
            #expect(await sink.seen == ["Ping"])
        }

        @Test("an event handled and continued to a non-root end is interrupted, keeping its handlers")
        func handledAndContinueToABrokenEnd() async throws {
            let chain = makeChain([.handleAndContinue, .pass], topIsRoot: false)

            let outcome = await chain[0].send(Ping())

            let interrupted = try #require(outcome.interruptedDetails)
            #expect(interrupted.lastReached == ResponderID(chain[1]))
            #expect(outcome.handlers == [ResponderID(chain[0])])
        }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Failing handlers")
    struct FailureTests {
        @Test("a throwing handler ends the send failed, with its error, its responder and its hop")
        func throwingHandlerFails() async throws {
            let (journal, chain) = journaledChain([.pass, .fail, .handle])

            let outcome = await chain[0].send(Ping())

            let failure = try #require(outcome.failedDetails)
            #expect(failure.responder == ResponderID(chain[1]))
            #expect(failure.hop == 2)
            #expect(failure.path.hops == 2)
            #expect(outcome.failedError(as: Boom.self) == Boom())
            #expect(journal.names == ["s0", "s1"])
        }

        @Test("a failure keeps the handlers that ran before it")
        func failureKeepsEarlierHandlers() async throws {
            let chain = makeChain([.tag("seen", then: .handledAndContinue), .fail, .pass])

            let outcome = await chain[0].send(Ping())

            let failure = try #require(outcome.failedDetails)
            #expect(failure.path.handlers == [ResponderID(chain[0])])
            #expect(failure.path.info[Tag.self] == "seen")
        }

        @Test("the chain keeps working for the next event after a handler threw")
        func chainKeepsWorking() async throws {
            let chain = makeChain([.pass, .fail, .pass])

            let failed = await chain[0].send(Ping())
            await chain[1].react(.handle)
            let handled = await chain[0].send(Ping())
            let unaffected = await chain[0].send(Knock())

            #expect(failed.kind == .failed)
            #expect(try #require(handled.handledDetails).stoppedAt == ResponderID(chain[1]))
            #expect(unaffected.unhandledDetails?.root == ResponderID(chain[2]))
            #expect(await chain[0].sightings.count == 2)
            #expect(await chain[1].sightings.count == 2)
        }
    }
}

import ResponderChain
import Testing

// This file imports the core alone, as an app does: the accessors it calls must be the core's
// (with member import visibility, a member declared in ResponderChainTesting would not compile
// here).

extension CoreSuites {
    @Suite("Outcome accessors in the core")
    struct OutcomeAccessorTests {
        @Test("an app reads one case's details with the core alone, and nil for the other cases")
        func accessorsNeedOnlyTheCore() async throws {
            let chain = makeChain([.fail, .pass])

            let outcome = await chain[0].send(Ping())

            let failure = try #require(outcome.failedDetails)
            #expect(failure.responder == ResponderID(chain[0]))
            #expect(outcome.failedError(as: Boom.self) == Boom())
            #expect(outcome.handledDetails == nil)
            #expect(outcome.unhandledDetails == nil)
            #expect(outcome.rejectedDetails == nil)
        }
    }
}

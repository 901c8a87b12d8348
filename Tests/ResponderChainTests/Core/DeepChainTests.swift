import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Deep chains")
    struct DeepChainTests {
        @Test("a 10,000-deep chain completes without overflowing the stack and counts 10,000 hops")
        func tenThousandHops() async throws {
            let depth = 10_000
            var chain = [Bead(parent: nil)]  // the top, a root that handles
            for _ in 1..<depth { chain.append(Bead(parent: chain[chain.count - 1])) }
            let leaf = try #require(chain.last)

            let outcome = await leaf.send(Ping())

            let handled = try #require(outcome.handledDetails)
            #expect(handled.hops == depth)
            #expect(handled.stoppedAt == ResponderID(chain[0]))
            #expect(handled.handlers == [ResponderID(chain[0])])

            // Release leaf-first, so that freeing the chain does not recurse 10,000 deinits deep.
            while chain.popLast() != nil {}
        }

        @Test("a 10,000-deep chain of actors completes too, one executor switch per hop")
        func tenThousandActorHops() async throws {
            let depth = 10_000
            var reactions = Array(repeating: Reaction.pass, count: depth)
            reactions[depth - 1] = .handle
            var chain = makeChain(reactions)

            let outcome = await chain[0].send(Ping())

            #expect(outcome.hops == depth)
            #expect(outcome.handledDetails?.stoppedAt == ResponderID(chain[depth - 1]))
            #expect(await chain[depth - 1].sightings.map(\.hop) == [depth])

            // Release leaf-first (the chain is leaf-first), so that no deinit recursion happens.
            chain.reverse()
            while chain.popLast() != nil {}
        }
    }
}

/// A bead of a long chain: a responder with no isolation of its own, so that its hops run where the
/// route runs (the test measures the system's loop, not 10,000 executor switches, and stays
/// light enough not to slow the suites running beside it). Its hop is the default for responders with no isolation.
private final class Bead: Responder {
    let parent: Bead?
    let isRoot: Bool

    init(parent: Bead?) {
        self.parent = parent
        self.isRoot = parent == nil
    }

    var next: (any Responder)? { parent }

    nonisolated(nonsending) func handle(_ event: any Event, context: inout EventContext)
        async throws -> Disposition
    {
        isRoot ? .handled : .pass
    }
}

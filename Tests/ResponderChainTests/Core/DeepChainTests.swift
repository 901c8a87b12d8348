import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Deep chains")
struct DeepChainTests {
    @Test("a 10,000-deep chain completes without overflowing the stack and counts 10,000 hops")
    func tenThousandHops() async throws {
        let depth = 10_000
        var reactions = Array(repeating: Reaction.pass, count: depth)
        reactions[depth - 1] = .handle
        let chain = makeChain(reactions)

        let outcome = await chain[0].send(Ping())

        let handled = try #require(outcome.handledDetails)
        #expect(handled.hops == depth)
        #expect(handled.stoppedAt == ResponderID(chain[depth - 1]))
        #expect(await chain[depth - 1].sightings.map(\.hop) == [depth])

        // Unlink leaf-first so that releasing the chain does not recurse 10,000 deinits deep.
        for station in chain { await station.link(to: nil) }
    }
}

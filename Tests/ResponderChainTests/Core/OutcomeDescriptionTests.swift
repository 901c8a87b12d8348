import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Outcome descriptions")
    struct OutcomeDescriptionTests {
        /// Each kind with the one-liner its outcome prints (responders are named by their labels).
        static let expectations: [(Outcome.Kind, String)] = [
            (.handled, "handled by s0, s1 after 2 hops"),
            (.unhandled, "unhandled at root s1 after 2 hops"),
            (.interrupted, "interrupted after s1 (not a root, no next) after 2 hops"),
            (.cycleDetected, "cycle detected: s0 reached again after 2 hops"),
            (.cancelled, "cancelled before hop 1 at s0 (task cancelled)"),
            (.timedOut, "timed out before hop 1 at s0"),
            (.failed, "failed at hop 2, s1 threw boom"),
        ]

        @Test("each kind of outcome describes itself in one readable line", arguments: expectations)
        func describes(_ kind: Outcome.Kind, as expected: String) async throws {
            let outcome = try #require(await Self.outcome(of: kind))

            #expect(outcome.kind == kind)
            #expect(outcome.description == expected)
            #expect(!outcome.description.contains("\n"))
        }

        /// A send over a two-station chain that ends in `kind`. (No `switch`: `Outcome` may gain cases.)
        private static func outcome(of kind: Outcome.Kind) async -> Outcome? {
            if kind == .handled {
                return await makeChain([.handleAndContinue, .handle])[0].send(Ping())
            }
            if kind == .unhandled {
                return await makeChain([.pass, .pass])[0].send(Ping())
            }
            if kind == .interrupted {
                return await makeChain([.pass, .pass], topIsRoot: false)[0].send(Ping())
            }
            if kind == .cycleDetected {
                let ring = makeChain([.pass, .pass], topIsRoot: false)
                await ring[1].link(to: ring[0])
                let outcome = await ring[0].send(Ping())
                await ring[1].link(to: nil)
                return outcome
            }
            if kind == .cancelled {
                let chain = makeChain([.handle, .handle])
                return await Task {
                    withUnsafeCurrentTask { $0?.cancel() }
                    return await chain[0].send(Ping())
                }.value
            }
            if kind == .timedOut {
                return await makeChain([.handle, .handle])[0].send(
                    Ping(), options: SendOptions(deadline: EventSystem.default.now - .seconds(1)))
            }
            if kind == .failed {
                return await makeChain([.pass, .fail])[0].send(Ping())
            }
            return nil
        }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Cycles", .timeLimit(.minutes(1)))
    struct CycleTests {
        /// Builds a chain of `count` stations reacting with `reaction` whose top is no root but
        /// links back to station `target`, sends a ``Ping`` from the leaf with `options`, then
        /// unlinks the top. Checks that the send ended cycleDetected, naming station `target` as
        /// the repeated responder and the top as the one that closed the cycle; returns the chain,
        /// the names of the handlers that ran, in order, and the cycle.
        private func sendAroundACycle(
            of count: Int, _ reaction: Reaction = .pass, closingOnto target: Int,
            options: SendOptions = .default
        ) async throws -> (chain: [Station], journal: [String], cycle: Outcome.Cycle) {
            let (journal, chain) = journaledChain(Array(repeating: reaction, count: count), topIsRoot: false)
            await chain[count - 1].link(to: chain[target])
            defer { Task { [chain] in await chain[count - 1].link(to: nil) } }

            let outcome = await chain[0].send(Ping(), options: options)

            let cycle = try #require(outcome.cycleDetectedDetails)
            #expect(cycle.repeated == ResponderID(chain[target]))
            #expect(cycle.closedBy == ResponderID(chain[count - 1]))
            return (chain, journal.names, cycle)
        }

        @Test(
            "a cycle ends cycleDetected, naming the repeated responder and the one that closed it, with no handler run twice",
            arguments: [1, 2, 50, 700])
        func cycleOfLength(_ length: Int) async throws {
            let (ring, journal, cycle) = try await sendAroundACycle(
                of: length, .handleAndContinue, closingOnto: 0)

            #expect(cycle.path.hops == length)
            #expect(cycle.path.handlers == ring.map { ResponderID($0) })
            #expect(journal == ring.map(\.name))
        }

        @Test("a cycle that closes onto a responder past the first 16 is detected at its first repeat")
        func cycleClosingDeepInTheChain() async throws {
            let (chain, journal, cycle) = try await sendAroundACycle(of: 300, closingOnto: 200)

            #expect(cycle.path.hops == 300)
            #expect(journal == chain.map(\.name))
        }

        @Test(
            "deep sends running at once each detect their own cycle, and deep chains without one end normally"
        )
        func concurrentDeepSends() async throws {
            let ring = makeChain(Array(repeating: .pass, count: 120), topIsRoot: false)
            await ring[119].link(to: ring[0])
            defer { Task { [ring] in await ring[119].link(to: nil) } }
            let line = makeChain(Array(repeating: .pass, count: 150) + [.handle])

            let outcomes = await withTaskGroup(of: (Bool, Outcome).self) { group in
                for index in 0..<16 {
                    let cyclic = index.isMultiple(of: 2)
                    group.addTask {
                        (cyclic, cyclic ? await ring[0].send(Ping()) : await line[0].send(Ping()))
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }

            #expect(outcomes.count == 16)
            for (cyclic, outcome) in outcomes {
                if cyclic {
                    #expect(outcome.cycleDetectedDetails?.repeated == ResponderID(ring[0]))
                    #expect(outcome.hops == 120)
                } else {
                    #expect(outcome.handledDetails?.stoppedAt == ResponderID(line[150]))
                    #expect(outcome.hops == 151)
                }
            }
        }

        @Test("a cycle above the sender names the responder where the loop closes")
        func cycleAboveTheSender() async throws {
            let (_, journal, _) = try await sendAroundACycle(of: 3, closingOnto: 1)

            #expect(journal == ["s0", "s1", "s2"])
        }

        @Test("a cycle back to the sender is detected when the event starts at next")
        func cycleThroughTheSenderStartingAtNext() async throws {
            let (_, journal, _) = try await sendAroundACycle(of: 2, closingOnto: 0, options: .startingAtNext)

            #expect(journal == ["s1"])
        }
    }
}

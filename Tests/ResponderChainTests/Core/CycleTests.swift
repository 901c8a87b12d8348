import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Cycles", .timeLimit(.minutes(1)))
    struct CycleTests {
        @Test(
            "a cycle ends cycleDetected, naming the repeated responder and the one that closed it, with no handler run twice",
            arguments: [1, 2, 50, 700])
        func cycleOfLength(_ length: Int) async throws {
            let journal = Journal()
            let ring = makeChain(
                Array(repeating: .handleAndContinue, count: length), topIsRoot: false, journal: journal)
            await ring[length - 1].link(to: ring[0])
            defer { Task { [ring] in await ring[length - 1].link(to: nil) } }

            let outcome = await ring[0].send(Ping())

            let cycle = try #require(outcome.cycleDetectedDetails)
            #expect(cycle.repeated == ResponderID(ring[0]))
            #expect(cycle.closedBy == ResponderID(ring[length - 1]))
            #expect(cycle.path.hops == length)
            #expect(cycle.path.handlers == ring.map { ResponderID($0) })
            #expect(journal.names == ring.map(\.name))
        }

        @Test("a cycle that closes onto a responder past the first 16 is detected at its first repeat")
        func cycleClosingDeepInTheChain() async throws {
            let journal = Journal()
            let chain = makeChain(Array(repeating: .pass, count: 300), topIsRoot: false, journal: journal)
            await chain[299].link(to: chain[200])
            defer { Task { [chain] in await chain[299].link(to: nil) } }

            let outcome = await chain[0].send(Ping())

            let cycle = try #require(outcome.cycleDetectedDetails)
            #expect(cycle.repeated == ResponderID(chain[200]))
            #expect(cycle.closedBy == ResponderID(chain[299]))
            #expect(cycle.path.hops == 300)
            #expect(journal.names == chain.map(\.name))
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
            let journal = Journal()
            let chain = makeChain([.pass, .pass, .pass], topIsRoot: false, journal: journal)
            await chain[2].link(to: chain[1])
            defer { Task { [chain] in await chain[2].link(to: nil) } }

            let outcome = await chain[0].send(Ping())

            let cycle = try #require(outcome.cycleDetectedDetails)
            #expect(cycle.repeated == ResponderID(chain[1]))
            #expect(cycle.closedBy == ResponderID(chain[2]))
            #expect(journal.names == ["s0", "s1", "s2"])
        }

        @Test("a cycle back to the sender is detected when the event starts at next")
        func cycleThroughTheSenderStartingAtNext() async throws {
            let journal = Journal()
            let chain = makeChain([.pass, .pass], topIsRoot: false, journal: journal)
            await chain[1].link(to: chain[0])
            defer { Task { [chain] in await chain[1].link(to: nil) } }

            let outcome = await chain[0].send(Ping(), options: .startingAtNext)

            let cycle = try #require(outcome.cycleDetectedDetails)
            #expect(cycle.repeated == ResponderID(chain[0]))
            #expect(cycle.closedBy == ResponderID(chain[1]))
            #expect(journal.names == ["s1"])
        }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Roots, interruptions and dead letters")
    struct EndOfChainTests {
        @Test("an event nobody handles ends unhandled at the root and reaches the system's dead-letter sink")
        func unhandledAtRoot() async throws {
            let deadLetters = DeadLetterRecorder()
            let chain = makeChain([.pass, .pass], system: deadLetters.system)

            let outcome = await chain[0].send(Ping())

            let unhandled = try #require(outcome.unhandledDetails)
            #expect(unhandled.root == ResponderID(chain[1]))
            let letter = try #require(deadLetters.letters.first)
            #expect(deadLetters.count == 1)
            #expect(letter.event is Ping)
            #expect(letter.source.responderID == ResponderID(chain[0]))
            #expect(letter.outcome.unhandledDetails?.root == ResponderID(chain[1]))
        }

        @Test(
            "an event that reaches a non-root responder with no next ends interrupted there, and is dead-lettered"
        )
        func interruptedAtDetachedResponder() async throws {
            let deadLetters = DeadLetterRecorder()
            let chain = makeChain([.pass, .pass, .pass], topIsRoot: false, system: deadLetters.system)

            let outcome = await chain[0].send(Ping())

            let interrupted = try #require(outcome.interruptedDetails)
            #expect(interrupted.lastReached == ResponderID(chain[2]))
            #expect(interrupted.hops == 3)
            let letter = try #require(deadLetters.letters.first)
            #expect(letter.outcome.interruptedDetails?.lastReached == ResponderID(chain[2]))
        }

        @Test("unhandled and interrupted dead letters are told apart by their outcome")
        func deadLettersAreDistinguishable() async throws {
            let deadLetters = DeadLetterRecorder()
            let rooted = makeChain([.pass, .pass], system: deadLetters.system)
            let detached = makeChain([.pass, .pass], topIsRoot: false, system: deadLetters.system)

            await rooted[0].send(Ping())
            await detached[0].send(Ping())

            #expect(deadLetters.outcomes.map(\.kind) == [.unhandled, .interrupted])
            #expect(deadLetters.outcomes[0].unhandledDetails?.root == ResponderID(rooted[1]))
            #expect(deadLetters.outcomes[1].interruptedDetails?.lastReached == ResponderID(detached[1]))
        }

        @Test("a per-send dead-letter sink is used instead of the system's")
        func perSendSinkWins() async throws {
            let chainLetters = DeadLetterRecorder()
            let sendLetters = DeadLetterRecorder()
            let chain = makeChain([.pass, .pass], topIsRoot: false, system: chainLetters.system)

            let outcome = await chain[0].send(Ping(), options: SendOptions(deadLetters: sendLetters.sink))

            #expect(outcome.kind == .interrupted)
            #expect(sendLetters.outcomes.map(\.kind) == [.interrupted])
            #expect(chainLetters.count == 0)
        }

        @Test("a per-send dead-letter sink works for a responder whose system has none")
        func perSendSinkWithoutRouterSink() async throws {
            let sendLetters = DeadLetterRecorder()
            let chain = makeChain([.pass, .pass])

            await chain[0].send(Ping(), options: SendOptions(deadLetters: sendLetters.sink))

            #expect(sendLetters.outcomes.map(\.kind) == [.unhandled])
        }

        @Test("handled and failed events never reach the dead-letter sink")
        func onlyUnhandledAndInterruptedAreDeadLettered() async throws {
            let deadLetters = DeadLetterRecorder()
            let handling = makeChain([.pass, .handle], system: deadLetters.system)
            let continuing = makeChain([.handleAndContinue, .pass], system: deadLetters.system)
            let failing = makeChain([.pass, .fail], system: deadLetters.system)

            let outcomes = [
                await handling[0].send(Ping()),
                await continuing[0].send(Ping()),
                await failing[0].send(Ping()),
            ]

            #expect(outcomes.map(\.kind) == [.handled, .handled, .failed])
            #expect(deadLetters.count == 0)
        }

        @Test("a lone responder that is not a root interrupts at itself, starting at the sender or at next")
        func loneDetachedResponder() async throws {
            let lone = Station(named: "lone", .pass)

            let atSender = await lone.send(Ping())
            let atNext = await lone.send(Ping(), options: .startingAtNext)

            #expect(atSender.interruptedDetails?.lastReached == ResponderID(lone))
            #expect(atSender.hops == 1)
            #expect(atNext.interruptedDetails?.lastReached == ResponderID(lone))
            #expect(atNext.hops == 0)
        }
    }
}

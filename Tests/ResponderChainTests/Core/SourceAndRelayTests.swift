import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Event sources and relays")
    struct SourceAndRelayTests {
        @Test("every handler's context names the sending responder as the source")
        func responderSource() async throws {
            let chain = makeChain([.pass, .pass, .handle])

            await chain[0].send(Ping())

            for station in chain {
                let sighting = try #require(await station.sightings.first)
                #expect(sighting.source.description == "s0")
                #expect(sighting.sourceResponder == ResponderID(chain[0]))
            }
        }

        @Test("an event sent from the middle of a chain names that responder, even when it starts at next")
        func sourceWhenStartingAtNext() async throws {
            let chain = makeChain([.pass, .pass, .handle])

            await chain[1].send(Ping(), options: .startingAtNext)

            #expect(await chain[2].sightings.map(\.sourceResponder) == [ResponderID(chain[1])])
        }

        @Test("a relayed event begins at the relay's entry and names the relay's label as its source")
        func relaySource() async throws {
            let chain = makeChain([.pass, .handle])
            let relay = Relay(entry: chain[0], label: "Webhook")

            let outcome = await relay.send(Ping())

            #expect(try #require(outcome.handledDetails).stoppedAt == ResponderID(chain[1]))
            #expect(outcome.hops == 2)
            let sighting = try #require(await chain[0].sightings.first)
            #expect(sighting.hop == 1)
            #expect(sighting.source.description == "relay(Webhook)")
            #expect(sighting.sourceResponder == nil)
            #expect(relay.description == "relay(Webhook)")
        }

        @Test("a relay always begins at its entry, whatever the options say")
        func relayIgnoresStartAtNext() async throws {
            let chain = makeChain([.handle, .handle])
            let relay = Relay(entry: chain[0], label: "Timer")

            let outcome = await relay.send(Ping(), options: .startingAtNext)

            #expect(outcome.handledDetails?.stoppedAt == ResponderID(chain[0]))
        }

        @Test(
            "a relay whose entry was deallocated ends interrupted, naming the relay, and is dead-lettered through the relay's system"
        )
        func relayWithoutEntry() async throws {
            let chainLetters = DeadLetterRecorder()
            let sendLetters = DeadLetterRecorder()
            var entry: Station? = Station(named: "entry", .handle, root: true, system: chainLetters.system)
            let relay = Relay(entry: try #require(entry), label: "Webhook", system: chainLetters.system)
            entry = nil
            #expect(relay.entry == nil)

            let outcome = await relay.send(Ping())
            let perSend = await relay.send(Ping(), options: SendOptions(deadLetters: sendLetters.sink))

            let interrupted = try #require(outcome.interruptedDetails)
            #expect(interrupted.lastReached.label == "relay(Webhook)")
            #expect(interrupted.hops == 0)
            #expect(chainLetters.outcomes.map(\.kind) == [.interrupted])
            #expect(chainLetters.letters.first?.source.description == "relay(Webhook)")
            #expect(perSend.kind == .interrupted)
            #expect(sendLetters.count == 1)
            #expect(chainLetters.count == 1)
        }

        @Test("a relayed send whose entry is gone is traced like any other send")
        func relayWithoutEntryIsTraced() async throws {
            let tracer = RecordingTracer()
            let sendLetters = DeadLetterRecorder()
            var entry: Station? = Station(named: "entry", .handle, root: true)
            let relay = Relay(entry: try #require(entry), label: "Webhook")
            entry = nil

            let outcome = await relay.send(
                Ping(), options: SendOptions(tracer: tracer, deadLetters: sendLetters.sink))

            #expect(tracer.eventIDs == [outcome.eventID])
            #expect(tracer.outcomes.map(\.kind) == [.interrupted])
            #expect(tracer.deadLetters.map(\.kind) == [.interrupted])
            #expect(tracer.lines(for: outcome.eventID).first == "\(outcome.eventID) Ping from relay(Webhook)")
        }
    }
}

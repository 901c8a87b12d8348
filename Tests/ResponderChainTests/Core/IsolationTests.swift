import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Isolation of handlers")
    struct IsolationTests {
        @Test("main-actor and actor responders mix in one chain, each handler on its own isolation")
        func mainActorAndActors() async throws {
            let journal = Journal()
            let root = Station(named: "root", .handle, root: true, journal: journal)
            let upper = await Panel("upper", .handleAndContinue, parent: root, journal: journal)
            let middle = Station(named: "middle", .pass, parent: upper, journal: journal)
            let lower = await Panel("lower", .pass, parent: middle, journal: journal)
            let leaf = Station(named: "leaf", .pass, parent: lower, journal: journal)

            let outcome = await leaf.send(Ping())

            #expect(journal.names == ["leaf", "lower", "middle", "upper", "root"])
            #expect(outcome.handlers == [ResponderID(upper), ResponderID(root)])
            #expect(await lower.pings == 1)
            #expect(await upper.pings == 1)
        }

        @Test("an event sent from the main actor reaches actor responders and comes back")
        func sentFromTheMainActor() async throws {
            let root = Station(named: "root", .handle, root: true)
            let panel = await Panel("panel", .pass, parent: root)

            let outcome = await sendFromMainActor(panel)

            #expect(outcome.handledDetails?.stoppedAt == ResponderID(root))
            #expect(await panel.pings == 1)
        }

        @MainActor
        private func sendFromMainActor(_ panel: Panel) async -> Outcome {
            MainActor.assertIsolated()
            return await panel.send(Ping())
        }

        @Test(
            "a responder isolated to another global actor runs its handler on that actor")
        func otherGlobalActor() async throws {
            let journal = Journal()
            let root = Station(named: "root", .handle, root: true, journal: journal)
            let ledger = await Ledger(parent: root, journal: journal)
            let leaf = Station(named: "leaf", .pass, parent: ledger, journal: journal)

            let outcome = await leaf.send(Ping())

            #expect(journal.names == ["leaf", "ledger", "root"])
            #expect(outcome.handledDetails?.stoppedAt == ResponderID(root))
            #expect(outcome.info[Tag.self] == "ledger")
            #expect(await ledger.entries == ["Ping"])
            #expect(await root.sightings.map(\.tag) == ["ledger"])
        }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    @Suite("Isolation of handlers")
    struct IsolationTests {
        /// A new journal, and a root called `root` that handles ``Ping``, writing its name there.
        private func journaledRoot() -> (journal: Journal, root: Station) {
            let journal = Journal()
            return (journal, Station(named: "root", .handle, root: true, journal: journal))
        }

        @Test("main-actor and actor responders mix in one chain, each handler on its own isolation")
        func mainActorAndActors() async throws {
            let (journal, root) = journaledRoot()
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
            let (journal, root) = journaledRoot()
            let ledger = await Ledger(parent: root, journal: journal)
            let leaf = Station(named: "leaf", .pass, parent: ledger, journal: journal)

            let outcome = await leaf.send(Ping())

            #expect(journal.names == ["leaf", "ledger", "root"])
            #expect(outcome.handledDetails?.stoppedAt == ResponderID(root))
            #expect(outcome.info[Tag.self] == "ledger")
            #expect(await ledger.entries == ["Ping"])
            #expect(await root.sightings.map(\.tag) == ["ledger"])
        }

        @Test(
            "a global-actor responder's table runs its entries, catch-all and middleware on that actor")
        func globalActorTable() async throws {
            let (journal, root) = journaledRoot()
            let ledger = await TableLedger(parent: root)
            let leaf = Station(named: "leaf", .pass, parent: ledger, journal: journal)

            let ping = await leaf.send(Ping())
            let named = await leaf.send(.addToCart, payload: "A-1")
            let other = await leaf.send(Knock())

            #expect(ping.handledDetails?.stoppedAt == ResponderID(ledger))
            #expect(ping.info[Tag.self] == "ledger")
            #expect(named.handledDetails?.stoppedAt == ResponderID(ledger))
            #expect(other.kind == .unhandled)  // the catch-all passed it on
            #expect(
                await ledger.entries == [
                    "around Ping", "Ping", "around addToCart", "A-1", "around Knock", "any Knock",
                ])
        }
    }
}

/// A responder isolated to ``LedgerActor`` whose handlers are a table: each closure names the
/// actor, and runs there (it asserts it).
@LedgerActor
final class TableLedger: GlobalActorResponder {
    nonisolated static var globalActor: any Actor { LedgerActor.shared }
    private let parent: (any Responder)?
    private(set) var entries: [String] = []

    init(parent: (any Responder)?) {
        self.parent = parent
    }

    var next: (any Responder)? { parent }

    nonisolated static let strategies = Strategies<TableLedger> {
        $0.on(Ping.self) { @LedgerActor ledger, _, context in
            LedgerActor.shared.assertIsolated()
            ledger.entries.append("Ping")
            context.info[Tag.self] = "ledger"
            return .handled
        }
        $0.on(.addToCart, payload: String.self) { @LedgerActor ledger, sku, _ in
            LedgerActor.shared.assertIsolated()
            ledger.entries.append(sku)
            return .handled
        }
        $0.onAnyEvent { @LedgerActor ledger, event, _ in
            LedgerActor.shared.assertIsolated()
            ledger.entries.append("any \(event.traceName)")
            return .pass
        }
        $0.use { @LedgerActor ledger, event, context, next in
            LedgerActor.shared.assertIsolated()
            ledger.entries.append("around \(event.traceName)")
            return try await next(&context)
        }
    }
}

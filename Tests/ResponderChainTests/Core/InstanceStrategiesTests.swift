import ResponderChain
import ResponderChainTesting
import Testing

/// An actor whose instances may each bring their own handler table.
private actor Worker: Responder {
    nonisolated let name: String
    nonisolated let strategies: Strategies<Worker>
    private(set) var handled: [String] = []

    init(_ name: String, strategies: Strategies<Worker>) {
        self.name = name
        self.strategies = strategies
    }

    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }
    nonisolated var label: String { name }

    func note(_ what: String) { handled.append(what) }

    /// The type's table: never used, since every instance has its own.
    static let strategies = Strategies<Worker> {
        $0.on(Ping.self) { worker, _, _ in
            worker.note("static")
            return .handled
        }
    }
}

/// An actor that keeps the type's table (the default).
private actor Clerk: Responder {
    private(set) var handled = 0
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<Clerk> {
        $0.on(Ping.self) { clerk, _, _ in
            clerk.handled += 1
            return .handled
        }
    }
}

extension CoreSuites {
    @Suite("Per-instance handler tables")
    struct InstanceStrategiesTests {
        @Test("two instances of one actor type with their own tables behave differently")
        func twoInstancesDiffer() async throws {
            let loud = Worker(
                "loud",
                strategies: Strategies {
                    $0.on(Ping.self) { worker, _, context in
                        worker.assertIsolated()
                        worker.note("loud")
                        return .handled
                    }
                })
            let quiet = Worker("quiet", strategies: Strategies())

            let handled = await loud.send(Ping())
            let passed = await quiet.send(Ping())

            #expect(try #require(handled.handledDetails).stoppedAt == ResponderID(loud))
            #expect(passed.kind == .unhandled)
            #expect(await loud.handled == ["loud"])
            #expect(await quiet.handled == [])
        }

        @Test("an instance's table replaces the type's table, catch-all included")
        func instanceReplacesType() async {
            let custom = Worker(
                "custom",
                strategies: Strategies {
                    $0.onAnyEvent { worker, _, _ in
                        worker.note("any"); return .handled
                    }
                })

            _ = await custom.send(Ping())

            #expect(await custom.handled == ["any"])
        }

        @Test("without a table of its own, an instance uses the type's")
        func defaultIsTheTypesTable() async {
            let clerk = Clerk()

            #expect(await clerk.send(Ping()).kind == .handled)
            #expect(await clerk.handled == 1)
            #expect(clerk.strategies.handles(Ping.self))
        }
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

/// An event with a number, for scripts that pick by event.
private struct Numbered: Event, CustomStringConvertible {
    let number: Int
    var description: String { "\(number)" }
}

/// A decoration a ``ScriptedResponder/Step/perform(_:)`` step adds.
private enum Stamp: InfoKey { typealias Value = String }

@Suite("A scripted responder", .timeLimit(.minutes(1)))
struct ScriptedResponderTests {
    /// A script's ending, and the outcome a send to a leaf running it under a handling root ends
    /// with.
    static let endings: [(script: ScriptedResponder.Script, kind: Outcome.Kind, handlers: [String])] = [
        (.pass, .handled, ["root"]),
        (.handle, .handled, ["leaf"]),
        (.handleAndContinue, .handled, ["leaf", "root"]),
        (.fail(Failure()), .failed, []),
    ]

    @Test("its script's ending decides the hop", arguments: endings.indices)
    func endingDecidesTheHop(_ index: Int) async throws {
        let (script, kind, handlers) = Self.endings[index]
        let root = ScriptedResponder("root", .handle, root: true)
        let leaf = ScriptedResponder("leaf", script, parent: root)

        let outcome = await leaf.send(Signal())

        #expect(outcome.kind == kind)
        #expect(outcome.handledDetails?.handlers.map(\.label) ?? [] == handlers)
        #expect(await leaf.log == ["start Signal", "end Signal"])
        #expect(await leaf.seen.map(\.hop) == [1])
        #expect(await root.seen.count == (handlers.contains("root") ? 1 : 0))
    }

    @Test("a failing script throws its error")
    func failingScriptThrowsItsError() async throws {
        let outcome = await ScriptedResponder("thrower", .fail(Failure())).send(Signal())
        #expect(outcome.failedError(as: Failure.self) == Failure())
    }

    @Test("a park step holds the handler until the gate opens")
    func parkHoldsTheHandler() async throws {
        let gate = Gate()
        let node = ScriptedResponder("node", .park(gate), root: true)

        let sending = Task { await node.send(Signal()) }
        try await gate.waitForArrivals(1)
        #expect(await node.log == ["start Signal"])
        gate.open()

        #expect(await sending.value.kind == .handled)
        #expect(await node.log == ["start Signal", "end Signal"])
        #expect(await !node.sawTaskCancelled)
    }

    @Test("a cancelled park step fails the handler; one that ignores the stop goes on")
    func cancelledParkSteps() async throws {
        for ignoring in [false, true] {
            let gate = Gate()
            let step: ScriptedResponder.Step = ignoring ? .parkIgnoringStop(gate) : .park(gate)
            let node = ScriptedResponder("node", .init([step], then: .handled), root: true)

            let sending = Task { await node.send(Signal()) }
            try await gate.waitForArrivals(1)
            sending.cancel()
            let outcome = await sending.value

            #expect(outcome.kind == .cancelled, "ignoring: \(ignoring)")
            #expect(await node.sawTaskCancelled, "ignoring: \(ignoring)")
            #expect(await node.sawContextCancelled, "ignoring: \(ignoring)")
            #expect(await node.log == ["start Signal", "end Signal"], "ignoring: \(ignoring)")
        }
    }

    @Test("a script can be picked per event, and replaced")
    func scriptPerEvent() async throws {
        let node = ScriptedResponder("node", root: true) { event in
            (event as? Numbered)?.number == 0 ? .handle : .pass
        }

        #expect(await node.send(Numbered(number: 0)).kind == .handled)
        #expect(await node.send(Numbered(number: 1)).kind == .unhandled)
        await node.setScript(.fail(Failure()))
        #expect(await node.send(Numbered(number: 0)).kind == .failed)
        #expect(await node.log == ["start 0", "end 0", "start 1", "end 1", "start 0", "end 0"])
    }

    @Test("send and post steps keep the outcomes and tickets of the events they make")
    func sendAndPostSteps() async throws {
        let root = ScriptedResponder("root", .handle, root: true, handling: [Numbered.self])
        let relay = ScriptedResponder(
            "relay",
            .init(
                [
                    .send { _ in Numbered(number: 1) },
                    .post(from: root) { _ in Numbered(number: 2) },
                    .send { _ in nil },
                ], then: .handled),
            parent: root, handling: [Signal.self])

        #expect(await relay.send(Signal()).kind == .handled)

        let sent = try #require(await relay.outcomes.first)
        #expect(await relay.outcomes.count == 1)
        #expect(sent.handledDetails?.handlers == [ResponderID(root)])
        let ticket = try #require(await relay.tickets.first)
        #expect(await ticket.outcome.kind == .handled)
        #expect(await root.seen.compactMap { ($0.event as? Numbered)?.number } == [1, 2])
    }

    @Test("a spawned task runs after its gate opens, while the handler has returned")
    func spawnStep() async throws {
        let after = Gate()
        let ran = Gate()
        let node = ScriptedResponder(
            "node", .init([.spawn(after: after) { _ in ran.open() }], then: .handled), root: true)

        #expect(await node.send(Signal()).kind == .handled)
        let spawned = try #require(await node.spawned.first)
        #expect(!ran.isOpen)
        after.open()
        await spawned.value
        #expect(ran.isOpen)
    }

    @Test("a perform step reads and decorates the context; the next hop sees the decoration")
    func performStep() async throws {
        let root = ScriptedResponder("root", .handle, root: true)
        let leaf = ScriptedResponder(
            "leaf",
            .init([.perform { _, context in context.info[Stamp.self] = "leaf" }], then: .pass),
            parent: root)

        _ = await leaf.send(Signal())

        #expect(await leaf.seen.map { $0.info[Stamp.self] } == [nil])
        #expect(await root.seen.map { $0.info[Stamp.self] } == ["leaf"])
        #expect(await root.seen.map(\.hop) == [2])
        #expect(await root.seen.map(\.source.responderID) == [ResponderID(leaf)])
    }

    @Test("a note step keeps what its body returns, here a task-local value bound by the sender")
    func noteStep() async throws {
        let node = ScriptedResponder(
            "node", .init([.note { _, context in "\(Self.marker ?? "none") at hop \(context.hop)" }]),
            root: true)

        _ = await Self.$marker.withValue("m-1") { await node.send(Signal()) }
        _ = await node.send(Signal())

        #expect(await node.notes.compactMap { $0 as? String } == ["m-1 at hop 1", "none at hop 1"])
    }

    @TaskLocal static var marker: String?

    @Test("with `handling`, other event types pass by without a handler")
    func handlingFilters() async throws {
        let node = ScriptedResponder("node", .handle, root: true, handling: [Numbered.self])

        #expect(await node.send(Signal()).kind == .unhandled)
        #expect(await node.send(Numbered(number: 3)).kind == .handled)
        #expect(await node.log == ["start 3", "end 3"])
    }

    @Test("an exclusive responder runs one handler at a time; a shared one runs them together")
    func exclusiveRunsOneAtATime() async throws {
        for exclusive in [false, true] {
            let gate = Gate()
            let node = ScriptedResponder("node", .park(gate), root: true, exclusive: exclusive)

            let first = Task { await node.send(Signal()) }
            try await gate.waitForArrivals(1)
            let second = Task { await node.send(Signal()) }
            if !exclusive { try await gate.waitForArrivals(2) }
            gate.open()
            _ = await (first.value, second.value)

            #expect(await node.maxRunning == (exclusive ? 1 : 2), "exclusive: \(exclusive)")
        }
    }

    @Test("a next gate holds the route between this hop and the next")
    func nextGateHoldsTheRoute() async throws {
        let gate = Gate()
        let root = ScriptedResponder("root", .handle, root: true)
        let leaf = ScriptedResponder("leaf", .pass, parent: root, nextGate: gate)

        let sending = Task { await leaf.send(Signal()) }
        try await gate.waitForArrivals(1)
        #expect(await leaf.log == ["start Signal", "end Signal"])
        #expect(await root.seen.isEmpty)
        await leaf.link(to: nil)
        gate.open()

        #expect(await sending.value.kind == .interrupted)
    }
}

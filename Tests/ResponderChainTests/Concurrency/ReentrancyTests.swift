@testable import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

extension Responder {
    /// The number of events waiting for this responder's handling lock (none without a lock).
    fileprivate nonisolated var lockWaitingCount: Int { handlingLock?.waitingCount ?? 0 }
}

@Suite("Reentrancy and one-event-at-a-time responders", .timeLimit(.minutes(1)))
struct ReentrancyTests {
    /// Waits until `count` events wait for `node`'s one-at-a-time lock.
    private func waitUntilWaiting(_ count: Int, at node: F.Node) async throws {
        try await waitUntil("\(count) events wait for the node's lock") {
            node.lockWaitingCount >= count
        }
    }

    @Test("a reentrant responder runs a second event's handler while the first one is suspended")
    func reentrantByDefault() async throws {
        let (gate, _, node) = F.parkedRoot()
        let first = Task { await node.send(F.Numbered(sender: 0, number: 0)) }
        let second = Task { await node.send(F.Numbered(sender: 1, number: 1)) }

        try await gate.waitForArrivals(2)  // both handlers are inside, suspended at the gate
        #expect(await node.log.filter { $0.hasPrefix("start") }.count == 2)
        #expect(await node.log.filter { $0.hasPrefix("end") }.isEmpty)

        gate.open()
        #expect(await first.value.kind == .handled)
        #expect(await second.value.kind == .handled)
    }

    /// A one-at-a-time root whose handler for event 0 is parked on `gate`, with event 1 waiting
    /// for its lock.
    private func parkedWithOneWaiting() async throws -> (
        node: F.Node, gate: Gate, first: Task<Outcome, Never>, second: Task<Outcome, Never>
    ) {
        let (gate, _, node) = F.parkedRoot(exclusive: true)
        let first = Task { await node.send(F.Numbered(sender: 0, number: 0)) }
        try await gate.waitForArrivals(1)
        let second = Task { await node.send(F.Numbered(sender: 0, number: 1)) }
        try await waitUntilWaiting(1, at: node)
        return (node, gate, first, second)
    }

    @Test("a one-at-a-time responder makes a second event wait until the first has finished")
    func secondEventWaits() async throws {
        let (node, gate, first, second) = try await parkedWithOneWaiting()

        #expect(gate.arrivals == 1)
        #expect(await node.log == ["start 0"])

        gate.open()
        #expect(await first.value.kind == .handled)
        #expect(await second.value.kind == .handled)
        #expect(await node.log == ["start 0", "end 0", "start 1", "end 1"])
    }

    @Test("events waiting for a one-at-a-time responder are handled in the order they arrived")
    func waitersInArrivalOrder() async throws {
        let (gate, _, node) = F.parkedRoot(exclusive: true)
        var sends = [Task { await node.send(F.Numbered(sender: 0, number: 0)) }]
        try await gate.waitForArrivals(1)
        for number in 1...5 {
            sends.append(Task { await node.send(F.Numbered(sender: number, number: number)) })
            try await waitUntilWaiting(number, at: node)
        }
        gate.open()
        for send in sends { #expect(await send.value.kind == .handled) }
        #expect(await node.seen.map(\.number) == Array(0...5))
        #expect(await node.log == (0...5).flatMap { ["start \($0)", "end \($0)"] })
    }

    @Test(
        "a one-at-a-time responder that is held, with events waiting, does not make an event at another one wait"
    )
    func heldResponderDoesNotDelayAnother() async throws {
        let (gate, _, held) = F.parkedRoot("held", exclusive: true)
        let other = F.Node("other", .handle, root: true, exclusive: true)
        let holder = Task { await held.send(F.Numbered(sender: 0, number: 0)) }
        try await gate.waitForArrivals(1)
        let waiting = Task { await held.send(F.Numbered(sender: 1, number: 1)) }
        try await waitUntilWaiting(1, at: held)

        // Were the two locks one, this send would wait for `held`: the deadline ends it instead.
        let outcome = await other.send(
            F.Numbered(sender: 2, number: 2), options: SendOptions(timeout: .seconds(30)))
        #expect(outcome.kind == .handled)
        #expect(await other.log == ["start 2", "end 2"])
        #expect(await held.log == ["start 0"])
        #expect(held.lockWaitingCount == 1)

        gate.open()
        #expect(await holder.value.kind == .handled)
        #expect(await waiting.value.kind == .handled)
        #expect(await held.log == ["start 0", "end 0", "start 1", "end 1"])
    }

    @Test(
        "a nested send from a one-at-a-time responder's own handler passes through it instead of waiting for itself"
    )
    func nestedSendPassesThrough() async throws {
        let node = F.Node("node", .resend, root: true, exclusive: true)
        let outcome = await node.send(F.Numbered(sender: 0, number: 0))
        #expect(outcome.kind == .handled)
        let nested = try #require(await node.nestedOutcomes.first)
        #expect(nested.kind == .handled)
        #expect(await node.seen.map(\.number) == [0, 1])
    }

    @Test(
        "an event cancelled while it waits for a one-at-a-time responder ends cancelled; its handler never runs"
    )
    func cancelWhileWaiting() async throws {
        let (node, gate, first, second) = try await parkedWithOneWaiting()
        second.cancel()

        let stop = try #require((await second.value).cancelledDetails)
        #expect(stop.responder == ResponderID(node))
        #expect(node.lockWaitingCount == 0)
        gate.open()
        #expect(await first.value.kind == .handled)
        #expect(await node.seen.map(\.number) == [0])
    }

    @Test("a one-at-a-time responder that is idle again holds no lock state")
    func lockStateIsReleased() async {
        let node = F.Node("node", .handle, root: true, exclusive: true)
        for number in 0..<3 {
            #expect(await node.send(F.Numbered(sender: 0, number: number)).kind == .handled)
        }
        #expect(node.lockWaitingCount == 0)
        #expect(node.handlingLock?.holders().isEmpty == true)
    }

    // MARK: Regressions: the lock must not leak to other tasks

    /// Whether `node`'s lock has a waiter (right) or its log shows that event `number` started
    /// (the lock was bypassed): a real signal either way, so the test never waits on time.
    private func waitUntilWaitingOrStarted(_ number: Int, at node: F.Scripted) async throws {
        try await waitUntil("an event waits for the node's lock, or event \(number) has started") {
            await node.log.contains("start \(number)")
                || node.lockWaitingCount >= 1
        }
    }

    @Test(
        "an event a one-at-a-time handler posts from its own responder is handled only after that handler has returned"
    )
    func ownPostWaitsForRunningHandler() async throws {
        let gate = Gate()
        let node = F.Scripted(
            "node", root: true, exclusive: true, system: EventSystem(),
            scripts: [0: F.Script([.post(1), .park(gate)])])
        let first = Task { await node.send(F.Numbered(sender: 0, number: 0)) }
        try await gate.waitForArrivals(1)  // handler 0 has posted event 1 and is parked
        try await waitUntilWaitingOrStarted(1, at: node)

        let logWhileHeld = await node.log
        #expect(logWhileHeld == ["start 0"])
        gate.open()
        #expect(await first.value.kind == .handled)
        let posted = try #require(await node.tickets.first)
        #expect(await posted.outcome.kind == .handled)
        let finalLog = await node.log
        #expect(finalLog == ["start 0", "end 0", "start 1", "end 1"])
        let maxRunning = await node.maxRunning
        #expect(maxRunning == 1)
    }

    @Test(
        "a task started by a one-at-a-time handler that sends to it after the handler has returned waits like any other event"
    )
    func lateSendFromSpawnedTaskWaits() async throws {
        let late = Gate()  // opened once another event holds the responder
        let hold = Gate()
        let node = F.Scripted(
            "node", root: true, exclusive: true, system: EventSystem(),
            scripts: [
                0: F.Script([
                    .spawn(after: late) { node in
                        await node.send(F.Numbered(sender: 0, number: 2))
                    }
                ]),
                1: F.Script([.park(hold)]),
            ])
        #expect(await node.send(F.Numbered(sender: 0, number: 0)).kind == .handled)
        let holder = Task { await node.send(F.Numbered(sender: 1, number: 1)) }
        try await hold.waitForArrivals(1)  // event 1 holds the responder
        late.open()  // handler 0 returned long ago: its task now sends event 2
        try await waitUntilWaitingOrStarted(2, at: node)

        let logWhileHeld = await node.log
        #expect(logWhileHeld == ["start 0", "end 0", "start 1"])
        hold.open()
        #expect(await holder.value.kind == .handled)
        let spawned = try #require(await node.spawned.first)
        await spawned.value
        let finalLog = await node.log
        #expect(finalLog == ["start 0", "end 0", "start 1", "end 1", "start 2", "end 2"])
        let maxRunning = await node.maxRunning
        #expect(maxRunning == 1)
    }

    @Test(
        "a sender whose posts were first delivered from inside a one-at-a-time handler: its later posts still wait for that responder"
    )
    func laneStartedInsideHandlerStillWaits() async throws {
        let leafGate = Gate()
        let hold = Gate()
        let system = EventSystem()
        let leaf = F.Scripted(
            "leaf", system: system, scripts: [1: F.Script([.park(leafGate)])],
            otherwise: F.Script(then: .pass))
        let node = F.Scripted(
            "node", root: true, exclusive: true, system: system,
            scripts: [0: F.Script([.post(1, from: leaf)]), 2: F.Script([.park(hold)])])
        await leaf.link(to: node)

        // Handler 0 posts event 1 from the leaf: the leaf's delivery lane starts inside it. Event
        // 1 is handled at the leaf, parked there, which keeps the lane busy.
        #expect(await node.send(F.Numbered(sender: 0, number: 0)).kind == .handled)
        try await leafGate.waitForArrivals(1)
        // Event 2 now holds the node; unrelated code posts event 3 from the leaf, on the same lane.
        let holder = Task { await node.send(F.Numbered(sender: 1, number: 2)) }
        try await hold.waitForArrivals(1)
        let later = await leaf.post(F.Numbered(sender: 2, number: 3))
        leafGate.open()
        try await waitUntilWaitingOrStarted(3, at: node)

        let logWhileHeld = await node.log
        #expect(logWhileHeld == ["start 0", "end 0", "start 2"])
        hold.open()
        #expect(await holder.value.kind == .handled)
        #expect(await later.outcome.kind == .handled)
        let first = try #require(await node.tickets.first)
        #expect(await first.outcome.kind == .handled)
        let finalLog = await node.log
        #expect(finalLog == ["start 0", "end 0", "start 2", "end 2", "start 3", "end 3"])
        let maxRunning = await node.maxRunning
        #expect(maxRunning == 1)
    }

    @Test(
        "stress: a one-at-a-time responder never runs two handlers at once, with many senders, its own posts and tasks its handlers start",
        .timeLimit(.minutes(1)))
    func oneAtATimeUnderStress() async {
        let system = EventSystem()
        let counter = F.ExclusiveCounter(seed: 42, system: system)
        let senders = 8
        let perSender = 150
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    let leaf = F.Node("leaf \(sender)", parent: counter, system: system)
                    var tickets: [Ticket] = []
                    for index in 0..<perSender {
                        let job = F.Job(id: sender * perSender + index + 1, followUps: true)
                        if index.isMultiple(of: 2) {
                            await leaf.send(job)
                        } else {
                            tickets.append(await leaf.post(job))
                        }
                    }
                    for ticket in tickets { _ = await ticket.outcome }
                }
            }
        }
        // Every original job has been handled, so every follow-up has been posted or started.
        let followUpTickets = await counter.tickets
        let followUpTasks = await counter.spawned
        for ticket in followUpTickets { _ = await ticket.outcome }
        for task in followUpTasks { await task.value }

        let maxRunning = await counter.maxRunning
        #expect(maxRunning == 1)
        #expect(
            await counter.handled == senders * perSender + followUpTickets.count + followUpTasks.count)
    }

    @Test(
        "an event stopped while it waits for a one-at-a-time responder did not run that hop: not counted, not traced",
        arguments: F.StopCause.allCases, [1, 2])
    func stoppedWhileWaiting(cause: ConcurrencyFixtures.StopCause, position: Int) async throws {
        let gate = Gate()
        let tracer = RecordingTracer()
        let system = EventSystem()
        let node = F.Node("node", .park(gate), root: true, exclusive: true, system: system)
        // The waiting responder is the sender itself (hop 1), or the one above it (hop 2).
        let sender = position == 1 ? node : F.Node("leaf", .pass, parent: node, system: system)
        let holder = Task { await node.send(F.Numbered(sender: 0, number: 0)) }
        try await gate.waitForArrivals(1)

        let outcome = try await cause.run(
            F.Numbered(sender: 1, number: 1), from: sender, options: SendOptions(tracer: tracer)
        ) { try await waitUntilWaiting(1, at: node) }

        #expect(outcome.kind == cause.kind)
        let stop = try #require(cause.details(outcome))
        #expect(stop.responder == ResponderID(node))
        #expect(stop.hop == position)
        #expect(!stop.whileHandling)
        #expect(stop.lastReached == (position == 1 ? nil : ResponderID(sender)))
        #expect(outcome.hops == position - 1)
        #expect(
            tracer.enteredHops(for: outcome.eventID).map(\.responder)
                == (position == 1 ? [] : [ResponderID(sender)]))
        #expect(node.lockWaitingCount == 0)

        gate.open()
        #expect(await holder.value.kind == .handled)
        #expect(await node.seen.map(\.number) == [0])
    }
}

/// Nested sends that belong to the running handler: they join its hold instead of waiting.
@Suite("Reentrancy: what passes through a one-at-a-time responder", .timeLimit(.minutes(1)))
struct PassThroughTests {
    /// A one-at-a-time root that, for event 0, sends event 1 to itself the way `mode` says, and
    /// waits for that send before it returns.
    actor Resender: Responder {
        enum Mode: Sendable, CaseIterable { case withDeadline, fromChildTask, fromUnstructuredTask }

        let mode: Mode
        private(set) var log: [String] = []
        private(set) var nested: Outcome?

        init(mode: Mode) { self.mode = mode }

        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }
        nonisolated let handlingLock: HandlingLock? = HandlingLock()

        static let strategies = Strategies<Resender> {
            $0.on(ConcurrencyFixtures.Numbered.self) { resender, event, _ in
                await resender.receive(event)
            }
        }

        private func receive(_ event: ConcurrencyFixtures.Numbered) async -> Disposition {
            log.append("start \(event.number)")
            defer { log.append("end \(event.number)") }
            guard event.number == 0 else { return .handled }
            let again = ConcurrencyFixtures.Numbered(sender: 0, number: 1)
            switch mode {
            case .withDeadline:
                nested = await send(again, options: SendOptions(timeout: .seconds(60)))
            case .fromChildTask:
                async let outcome = send(again)
                nested = await outcome
            case .fromUnstructuredTask:
                nested = await Task { await self.send(again) }.value
            }
            return .handled
        }
    }

    @Test(
        "a nested send that the running handler waits for passes through, even from another task",
        arguments: Resender.Mode.allCases)
    func nestedSendsJoin(mode: Resender.Mode) async throws {
        let resender = Resender(mode: mode)
        #expect(await resender.send(ConcurrencyFixtures.Numbered(sender: 0, number: 0)).kind == .handled)
        let nested = try #require(await resender.nested)
        #expect(nested.kind == .handled)
        #expect(await resender.log == ["start 0", "start 1", "end 1", "end 0"])
    }
}

import ResponderChain
import ResponderChainTesting
import Testing

private typealias F = ConcurrencyFixtures

@Suite("Backpressure", .timeLimit(.minutes(5)))
struct BackpressureTests {
    @Test("a full system with the reject policy rejects a post at once; it is traced and dead-lettered")
    func rejectWhenFull() async throws {
        let rig = F.Rig(limit: EventSystem.PostingLimit(maxOutstanding: 2, whenFull: .reject))
        let (gate, system, node) = F.parkedRoot(in: rig.system)

        let first = await node.post(F.Numbered(sender: 0, number: 0))
        let second = await node.post(F.Numbered(sender: 0, number: 1))
        let third = await node.post(F.Numbered(sender: 0, number: 2))

        let rejection = try #require((await third.outcome).rejectedDetails)
        #expect(rejection.reason == .limitReached(maxOutstanding: 2))
        #expect(rejection.sender == ResponderID(node))
        #expect(rejection.path.hops == 0)
        #expect(rig.letters.outcomes.map(\.kind) == [.rejected])
        #expect(rig.tracer.outcomes.map(\.kind) == [.rejected])
        #expect(system.outstandingPosts == 2)

        gate.open()
        #expect(await first.outcome.kind == .handled)
        #expect(await second.outcome.kind == .handled)
        #expect(await node.seen.map(\.number) == [0, 1])
        #expect(system.outstandingPosts == 0)
        #expect(system.peakOutstandingPosts == 2)
    }

    @Test(
        "whoever sees a ticket's outcome finds its post's room free: a full system takes the next post at once"
    )
    func outcomeSeenMeansRoomFree() async throws {
        let rig = F.Rig(limit: EventSystem.PostingLimit(maxOutstanding: 1, whenFull: .reject))
        let node = F.Node("node", .handle, root: true, system: rig.system)
        let rounds = F.stressSize("RESPONDERCHAIN_ROOM_ROUNDS", standard: 3_000)
        for number in 0..<rounds {
            let ticket = await node.post(F.Numbered(sender: 0, number: number))
            // Read the outcome the moment it is recorded, as a poller would, rather than waiting
            // to be woken (a woken waiter runs later, after the room is free in any case): the
            // spin is the probe, on the other core than the delivery.
            while ticket.finishedOutcome == nil { await Task.yield() }
            #expect(rig.system.outstandingPosts == 0, "round \(number)")
            try #require(ticket.finishedOutcome?.kind == .handled)
        }
        #expect(rig.letters.outcomes.isEmpty)
    }

    @Test("a full system with the suspend policy makes the poster wait until there is room")
    func suspendWhenFull() async throws {
        let (gate, system, node) = F.parkedRoot(
            in: EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 2, whenFull: .suspend)))

        _ = await node.post(F.Numbered(sender: 0, number: 0))
        _ = await node.post(F.Numbered(sender: 0, number: 1))
        let third = Task { await node.post(F.Numbered(sender: 0, number: 2)) }
        try await waitUntil("one poster waits for room") { system.suspendedPosters == 1 }
        #expect(system.outstandingPosts == 2)

        gate.open()
        let ticket = await third.value
        #expect(await ticket.outcome.kind == .handled)
        #expect(await node.seen.map(\.number) == [0, 1, 2])
        #expect(system.peakOutstandingPosts == 2)
        #expect(system.suspendedPosters == 0)
    }

    @Test("posters waiting for room are admitted first come, first served")
    func waitingPostersInOrder() async throws {
        let (gate, system, node) = F.parkedRoot(
            in: EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 1)))

        _ = await node.post(F.Numbered(sender: 0, number: 0))
        var waiting: [Task<Ticket, Never>] = []
        for number in 1...4 {
            waiting.append(Task { await node.post(F.Numbered(sender: 0, number: number)) })
            try await waitUntil("\(number) posters wait for room") { system.suspendedPosters == number }
        }
        gate.open()
        for task in waiting { #expect(await task.value.outcome.kind == .handled) }
        #expect(await node.seen.map(\.number) == Array(0...4))
    }

    @Test("a poster cancelled while it waits for room gets a rejected ticket; the event is never delivered")
    func cancelWaitingPoster() async throws {
        let (gate, system, node) = F.parkedRoot(
            in: EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 1)))

        let first = await node.post(F.Numbered(sender: 0, number: 0))
        let waiting = Task { await node.post(F.Numbered(sender: 0, number: 1)) }
        try await waitUntil("one poster waits for room") { system.suspendedPosters == 1 }
        waiting.cancel()

        let rejection = try #require((await waiting.value.outcome).rejectedDetails)
        #expect(rejection.reason == .posterCancelled)
        #expect(system.suspendedPosters == 0)
        gate.open()
        #expect(await first.outcome.kind == .handled)
        #expect(await node.seen.map(\.number) == [0])
    }

    @Test("a handler that posts while the system is full is not suspended: no deadlock")
    func handlerPostsOverTheLimit() async throws {
        let system = EventSystem(postingLimit: EventSystem.PostingLimit(maxOutstanding: 1))
        let node = F.Node("node", .repost, root: true, system: system)

        let first = await node.post(F.Numbered(sender: 0, number: 0))
        #expect(await first.outcome.kind == .handled)
        let inner = try #require(await node.innerTickets.first)
        #expect(await inner.outcome.kind == .handled)
        #expect(await node.seen.map(\.number) == [0, 1])
        #expect(system.peakOutstandingPosts == 2)
    }

    @Test(
        "a task started by a posted event's handler posts within the limit once that handler has returned",
        arguments: [EventSystem.PostingLimit.Policy.suspend, .reject])
    func spawnedTaskPostsWithinTheLimit(policy: EventSystem.PostingLimit.Policy) async throws {
        let limit = 16
        let flood = 100
        let hold = Gate()
        let after = Gate()  // opened once the handler that started the task has returned
        let system = EventSystem(
            postingLimit: EventSystem.PostingLimit(maxOutstanding: limit, whenFull: policy))
        let consumer = F.Node("consumer", .park(hold), root: true, system: system)
        let tickets = F.Collector<Ticket>()
        let starter = F.Scripted(
            "starter", root: true, system: system,
            scripts: [
                0: F.Script([
                    .spawn(after: after) { _ in
                        for number in 1...flood {
                            tickets.append(await consumer.post(F.Numbered(sender: 1, number: number)))
                        }
                    }
                ])
            ])

        let posted = await starter.post(F.Numbered(sender: 0, number: 0))
        #expect(await posted.outcome.kind == .handled)
        #expect(system.outstandingPosts == 0)
        let spawned = try #require(await starter.spawned.first)
        after.open()

        switch policy {
        case .suspend:
            // The task must end up waiting for room (right), or have posted everything (the bug).
            try await waitUntil("the task waits for room or has posted everything") {
                system.suspendedPosters > 0 || tickets.count == flood
            }
            #expect(system.suspendedPosters == 1)
        case .reject:
            await spawned.value
            let rejected = tickets.all.filter { $0.finishedOutcome?.kind == .rejected }
            #expect(rejected.count == flood - limit)
        }
        #expect(system.peakOutstandingPosts <= limit)

        hold.open()
        await spawned.value
        var kinds: [Outcome.Kind: Int] = [:]
        for ticket in tickets.all { kinds[await ticket.outcome.kind, default: 0] += 1 }
        #expect(kinds[.handled, default: 0] + kinds[.rejected, default: 0] == flood)
        #expect(kinds[.handled, default: 0] == (policy == .suspend ? flood : limit))
        #expect(system.peakOutstandingPosts <= limit)
        #expect(system.outstandingPosts == 0)
    }

    @Test(
        "a flood of posts against a slow top responder stays within the limit, and every post gets one outcome",
        .timeLimit(.minutes(5)))
    func flood() async {
        // A million; fewer where the environment says (the thread-sanitizer run sets 100,000).
        let posts = F.stressSize("RESPONDERCHAIN_FLOOD_POSTS", standard: 1_000_000)
        let counter = F.OutcomeCounter()
        let limit = 1_024
        let system = EventSystem(
            tracer: counter, postingLimit: EventSystem.PostingLimit(maxOutstanding: limit))
        let top = F.Node("top", .suspendRandomly(seed: 11), root: true, system: system)
        let leaf = F.Node("leaf", .pass, parent: top, system: system)

        var last: Ticket?
        for number in 0..<posts {
            last = await leaf.post(F.Numbered(sender: 0, number: number))
        }
        _ = await last?.outcome

        #expect(counter.total == posts)
        #expect(counter.count(.unhandled) == posts)
        #expect(system.peakOutstandingPosts <= limit)
        #expect(system.outstandingPosts == 0)
        #expect(await top.seen.count == posts)
        #expect(await top.duplicates == 0)
    }
}

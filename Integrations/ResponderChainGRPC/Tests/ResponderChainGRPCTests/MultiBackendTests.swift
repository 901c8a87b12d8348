import RemoteOrders
import ResponderChain
import ResponderChainGRPC
import ResponderChainTesting
import Testing

@testable import ResponderChainGRPC

/// One link over three `remote-chain-test-server` processes (see ``BackendProcess``), each
/// launched with `--name`, so that every order handled comes back with the name of the process
/// that handled it (``HandledBy``) and its arrival number there (``Reservation``).
@Suite("One link over several backend processes", .timeLimit(.minutes(3)))
struct MultiBackendTests {
    static let postsPerSender = 200
    static let postsAfterKill = 20

    @Test(
        "six senders post through one link over three backends, one killed with SIGKILL midway: each ticket ends once, handled, or lost at the link if it was under way on the killed one (an unreachable call goes to the next backend); each sender's posts went to one backend until it died, then to one living one, in post order on each; posts after the kill are all handled by the living"
    )
    func killOneOfThree() async throws {
        let tracer = RecordingTracer()
        let letters = DeadLetterRecorder()
        let front = EventSystem(tracer: tracer, deadLetters: letters.sink)
        var processes: [String: BackendProcess] = [:]
        defer { for process in processes.values { process.kill() } }
        for name in ["b0", "b1", "b2"] {
            processes[name] = try await BackendProcess.launch(arguments: ["--name", name])
        }
        let nameOf = Dictionary(uniqueKeysWithValues: processes.map { ("[ipv4]127.0.0.1:\($1.port)", $0) })
        let transport = try GRPCMultiBackendTransport(
            addresses: processes.values.map { ("127.0.0.1", $0.port) })

        var outcomes: [[Outcome]] = []  // per sender, in post order
        var homes: [String] = []  // per sender
        var fallbacks: [String?] = []  // per sender, its first choice but the victim
        let victim = "b1"
        var watched = -1  // a sender of the victim's, watched to kill it midway
        try await withLink(over: transport, in: front) { link in
            #expect(Set(transport.backends.compactMap { nameOf[$0] }) == ["b0", "b1", "b2"])

            // Two senders whose backend is each of the three.
            var senders: [Station] = []
            var candidates: [Station] = []  // kept alive: a freed one's key may come again
            while senders.count < 6, candidates.count < 1_000 {
                let station = Station("sender\(candidates.count)", .pass, next: link, system: front)
                candidates.append(station)
                let home = try #require(
                    transport.backend(for: RemoteSenderKey(.responder(station))).flatMap { nameOf[$0] })
                if homes.filter({ $0 == home }).count < 2 {
                    senders.append(station)
                    homes.append(home)
                }
            }
            try #require(senders.count == 6)

            var tickets: [[Ticket]] = Array(repeating: [], count: senders.count)
            for number in 0..<Self.postsPerSender {
                for (index, sender) in senders.enumerated() {
                    tickets[index].append(await sender.post(PlaceOrder(sku: "s\(index)-\(number)")))
                }
            }
            // Midway: the victim has handled a fifth of one of its senders' posts.
            watched = try #require(homes.firstIndex(of: victim))
            let early = await tickets[watched][Self.postsPerSender / 5].outcome
            #expect(early.handledDetails?.info[HandledBy.self] == victim, "\(early)")
            try #require(processes[victim] != nil)
            await processes[victim]?.killAndWait()

            for (index, line) in tickets.enumerated() {
                var mine: [Outcome] = []
                for ticket in line { mine.append(await ticket.outcome) }
                outcomes.append(mine)
                let ranking = Rendezvous.ranking(
                    of: transport.backends, for: RemoteSenderKey(.responder(senders[index])))
                fallbacks.append(ranking.compactMap { nameOf[$0] }.first { $0 != victim })
            }
            // After the kill, and once every post before it has ended.
            for (index, sender) in senders.enumerated() {
                var after: [Ticket] = []
                for number in 0..<Self.postsAfterKill {
                    after.append(await sender.post(PlaceOrder(sku: "s\(index)-late-\(number)")))
                }
                for ticket in after {
                    let outcome = await ticket.outcome
                    outcomes[index].append(outcome)
                    let by = outcome.handledDetails?.info[HandledBy.self]
                    #expect(by != nil && by != victim, "after the kill: \(outcome)")
                }
            }
            for line in tickets {
                for ticket in line { #expect(ticket.finishedOutcome?.eventID == ticket.eventID) }
            }
        }

        let all = outcomes.flatMap { $0 }
        #expect(all.count == 6 * (Self.postsPerSender + Self.postsAfterKill))
        var interrupted: [Outcome] = []
        for (index, line) in outcomes.enumerated() {
            var backends: [String] = []  // the backend of each handled post, in post order
            var lastNumber: [String: Int] = [:]
            for outcome in line {
                if let handled = outcome.handledDetails {
                    #expect(handled.stoppedAt.label == "stock")
                    let by = try #require(handled.info[HandledBy.self], "\(outcome)")
                    let number = try #require(handled.info[Reservation.self], "\(outcome)")
                    // In post order on the backend that received them.
                    #expect(number > lastNumber[by, default: 0], "sender \(index) on \(by): \(number)")
                    lastNumber[by] = number
                    backends.append(by)
                } else {
                    let broken = try #require(outcome.interruptedDetails, "\(outcome)")
                    #expect(broken.lastReached.label == "link")
                    // Only a call under way on the victim when it died: one that found no
                    // connection (unreachable) was made again on a living backend.
                    #expect(homes[index] == victim, "\(outcome)")
                    interrupted.append(outcome)
                    let lost = if case .lost = broken.cause as? RemoteLinkError { true } else { false }
                    #expect(lost, "expected lost, got \(outcome)")
                }
            }
            if homes[index] == victim {
                // On the victim until it died, then on one living backend: its next choice.
                let moved = try #require(backends.firstIndex { $0 != victim }, "sender \(index): \(backends)")
                #expect(moved > Self.postsPerSender / 5 || index != watched)
                #expect(backends[..<moved].allSatisfy { $0 == victim })
                #expect(
                    backends[moved...].allSatisfy { $0 == fallbacks[index] }, "sender \(index): \(backends)")
            } else {
                // Its backend lived: every post went there, and none was lost.
                #expect(backends == Array(repeating: homes[index], count: line.count), "sender \(index)")
            }
        }
        // The dead-letter sink got exactly the ones not handled; the tracer saw each end once.
        expectEachEndedOnce(all, interrupted: interrupted, letters: letters, tracer: tracer, system: front)
    }

    @Test(
        "a DNS name is resolved by grpc-swift's resolver: each address it names is a backend, and sends reach it"
    )
    func dnsNameIsResolved() async throws {
        let front = EventSystem()
        let backend = try await BackendProcess.launch(arguments: ["--name", "by-name"])
        defer { backend.kill() }
        // `localhost` resolves through the system's resolver (here /etc/hosts), as any DNS name.
        let transport = try GRPCMultiBackendTransport(dnsHost: "localhost", port: backend.port)
        try await withLink(over: transport, in: front) { link in
            let senders = (0..<8).map { Station("sender\($0)", .pass, next: link, system: front) }
            for sender in senders {
                let outcome = await sender.send(PlaceOrder(sku: "ok"))
                #expect(outcome.handledDetails?.info[HandledBy.self] == "by-name", "\(outcome)")
            }
            #expect(
                transport.backends.contains { $0.hasSuffix("127.0.0.1:\(backend.port)") },
                "\(transport.backends)")
        }
        await backend.killAndWait()
    }

    @Test(
        "a backend killed and started again on its address gets its senders back: while it is down they go to their next backend, never unreachable; once it answers a probe after its backoff, they return to it and stay"
    )
    func restartedBackendGetsItsSendersBack() async throws {
        let front = EventSystem()
        var first = try await BackendProcess.launch(arguments: ["--name", "first"])
        let other = try await BackendProcess.launch(arguments: ["--name", "other"])
        defer {
            first.kill()
            other.kill()
        }
        let port = first.port
        var options = GRPCMultiBackendTransport.Options()
        options.initialBackoff = .milliseconds(20)
        options.maxBackoff = .milliseconds(100)
        let transport = try GRPCMultiBackendTransport(
            addresses: [("127.0.0.1", port), ("127.0.0.1", other.port)], options: options)

        try await withLink(over: transport, in: front) { link in
            var candidates: [Station] = []  // kept alive: a freed one's key may come again
            var sender: Station?
            while sender == nil, candidates.count < 100 {
                let station = Station("sender\(candidates.count)", .pass, next: link, system: front)
                candidates.append(station)
                if transport.backend(for: RemoteSenderKey(.responder(station))) == "[ipv4]127.0.0.1:\(port)" {
                    sender = station
                }
            }
            let station = try #require(sender)
            var number = 0
            /// Sends the next order; the backend that handled it, or `nil` if it was lost.
            func send() async -> String? {
                number += 1
                let outcome = await station.send(PlaceOrder(sku: "ok-\(number)"))
                if let handled = outcome.handledDetails { return handled.info[HandledBy.self] }
                let cause = outcome.interruptedDetails?.cause as? RemoteLinkError
                let lost = if case .lost = cause { true } else { false }
                #expect(lost, "only a call made while the connection closes may be lost: \(outcome)")
                return nil
            }

            #expect(await send() == "first")
            await first.killAndWait()
            // The first calls may find the connection still closing (lost); then the sender's
            // next backend serves it.
            var served: String?
            for _ in 0..<10 where served == nil { served = await send() }
            #expect(served == "other")

            first = try await BackendProcess.launch(arguments: ["--port", "\(port)", "--name", "first again"])
            // Probed after each backoff, and by grpc-swift's own reconnection: a bounded wait,
            // measured, with the sends as the only pace.
            let clock = ContinuousClock()
            let start = clock.now
            var back = false
            while !back, start.duration(to: clock.now) < .seconds(60) {
                let by = await send()
                #expect(by == "other" || by == "first again")
                back = by == "first again"
            }
            #expect(back, "the restarted backend got no call in 60 s")
            for _ in 0..<20 { #expect(await send() == "first again") }
        }
        await first.killAndWait()
        await other.killAndWait()
    }
}

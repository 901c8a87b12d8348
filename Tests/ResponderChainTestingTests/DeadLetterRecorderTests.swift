import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Dead-letter recorder", .timeLimit(.minutes(1)))
struct DeadLetterRecorderTests {
    @Test("it records dead letters in the order they arrive, with their events, sources and outcomes")
    func recordsInOrder() async throws {
        let recorder = DeadLetterRecorder()
        let system = EventSystem(deadLetters: recorder.sink)
        let root = Probe("root", .pass, root: true, system: system)
        let leaf = Probe("leaf", .pass, parent: root, system: system)
        let detached = Probe("detached", .pass, system: system)

        await leaf.send(Signal())
        await detached.send(Signal())

        #expect(recorder.count == 2)
        #expect(recorder.outcomes.map(\.kind) == [.unhandled, .interrupted])
        #expect(recorder.letters.map(\.source.description) == ["leaf", "detached"])
        #expect(recorder.letters.allSatisfy { $0.event is Signal })
    }

    @Test("waitForLetters returns once that many letters have arrived, without sleeping")
    func waitsForLetters() async throws {
        let recorder = DeadLetterRecorder()
        let detached = Probe("detached", .pass)
        let options = SendOptions(deadLetters: recorder.sink)

        let waiting = Task { try await recorder.waitForLetters(2) }
        let senders = (0..<2).map { _ in Task { await detached.send(Signal(), options: options) } }
        let letters = try await waiting.value

        #expect(letters.count == 2)
        #expect(letters.map(\.outcome.kind) == [.interrupted, .interrupted])
        for sender in senders { _ = await sender.value }
    }

    @Test("waitForLetters returns at once with the first letters when enough already arrived")
    func waitForPastLetters() async throws {
        let recorder = DeadLetterRecorder()
        let root = Probe("root", .pass, root: true)
        let options = SendOptions(deadLetters: recorder.sink)
        let first = await root.send(Signal(), options: options)
        await root.send(Signal(), options: options)

        let letters = try await recorder.waitForLetters(1)

        #expect(letters.map(\.outcome.eventID) == [first.eventID])
    }

    @Test("waitForLetters is woken by the letter it waits for, long before its limit")
    func letterWakesTheWait() async throws {
        let recorder = DeadLetterRecorder()
        let gate = Gate()
        let root = Probe("root", .park(gate, then: .pass), root: true)

        try await confirmation("the wait returned") { returned in
            let waiting = Task {
                let letters = try await recorder.waitForLetters(1, within: .seconds(20))
                returned()
                return letters
            }
            let ticket = await root.post(Signal(), options: SendOptions(deadLetters: recorder.sink))
            try await gate.waitForArrivals(1)
            gate.open()
            let letters = try await waiting.value
            #expect(letters.map(\.outcome.eventID) == [ticket.eventID])
        }
    }

    @Test("waitForLetters throws WaitTimedOut at its limit, listing the letters that had arrived")
    func letterWaitTimesOut() async throws {
        let recorder = DeadLetterRecorder()
        await Probe("root", .pass, root: true).send(
            Signal(), options: SendOptions(deadLetters: recorder.sink))

        let error = await expectTimedOut(at: .milliseconds(50)) {
            try await recorder.waitForLetters(3, within: .milliseconds(50))
        }

        let timedOut = try #require(error)
        #expect(timedOut.condition == "3 dead letters")
        #expect(timedOut.arrived.hasPrefix("1 arrived: Signal unhandled"))
        #expect(timedOut.description.hasPrefix("waited 0.05 seconds for 3 dead letters; 1 arrived: "))
        #expect(recorder.count == 1)
    }

    @Test("cancelling a task waiting for letters wakes it with CancellationError")
    func cancellationWakesAWaiter() async throws {
        let recorder = DeadLetterRecorder()

        let waiting = Task { try await recorder.waitForLetters(1) }
        waiting.cancel()

        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test("reset forgets the letters received so far")
    func resetForgets() async throws {
        let recorder = DeadLetterRecorder()
        await Probe("root", .pass, root: true).send(
            Signal(), options: SendOptions(deadLetters: recorder.sink))

        recorder.reset()

        #expect(recorder.count == 0)
        #expect(recorder.letters.isEmpty)
    }
}

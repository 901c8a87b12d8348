import ResponderChainTesting
import Testing

@Suite("Gate", .timeLimit(.minutes(1)))
struct GateTests {
    /// The gate under test: each test runs on a new suite value, so each gets a new, closed gate.
    let gate = Gate()
    /// What the test's tasks did, in order.
    let timeline = Timeline()

    @Test("a task that passes a closed gate parks until the gate opens")
    func parksUntilOpen() async throws {
        let parked = Task {
            try await gate.pass()
            timeline.append("passed")
        }
        try await gate.waitForArrivals(1)
        timeline.append("opening")
        #expect(!gate.isOpen)
        gate.open()
        try await parked.value

        #expect(timeline.entriesSoFar == ["opening", "passed"])
        #expect(gate.isOpen)
    }

    @Test("waitForArrivals returns once that many tasks have reached the gate")
    func waitsForArrivals() async throws {
        let tasks = (0..<3).map { _ in Task { try await gate.pass() } }
        try await gate.waitForArrivals(3)

        #expect(gate.arrivals == 3)
        gate.open()
        for task in tasks { try await task.value }
    }

    @Test("waitForArrivals returns at once when enough tasks have already arrived")
    func waitForPastArrivals() async throws {
        gate.open()
        try await gate.pass()
        try await gate.pass()

        try await gate.waitForArrivals(2)

        #expect(gate.arrivals == 2)
    }

    @Test("waitForArrivals is woken by the arrival it waits for, long before its limit")
    func arrivalWakesTheWait() async throws {
        try await confirmation("the wait returned") { returned in
            let waiting = Task {
                try await gate.waitForArrivals(2, within: .seconds(20))
                returned()
            }
            let first = Task { try await gate.pass() }
            try await gate.waitForArrivals(1)
            let second = Task { try await gate.pass() }
            try await waiting.value
            gate.open()
            try await first.value
            try await second.value
        }
    }

    @Test("waitForArrivals throws WaitTimedOut at its limit, saying how many arrived, and leaves the line")
    func arrivalWaitTimesOut() async throws {
        let parked = Task { try await gate.pass() }
        try await gate.waitForArrivals(1)

        let error = await expectTimedOut(at: .milliseconds(50)) {
            try await gate.waitForArrivals(3, within: .milliseconds(50))
        }

        let timedOut = try #require(error)
        #expect(timedOut.condition == "3 arrivals at the gate")
        #expect(timedOut.arrived == "1 arrived")
        #expect(timedOut.limit == .milliseconds(50))
        #expect(timedOut.description == "waited 0.05 seconds for 3 arrivals at the gate; 1 arrived")
        #expect(gate.arrivalWaiters.suspended == 0)
        #expect(gate.arrivalWaiters.aboutToSuspend == 0)
        gate.open()
        try await parked.value
    }

    @Test(
        "a task parked at a gate that stays closed throws WaitTimedOut at its limit, and the gate stays closed"
    )
    func parkedPassTimesOut() async throws {
        let error = await expectTimedOut(at: .milliseconds(50)) {
            try await gate.pass(within: .milliseconds(50))
        }

        #expect(error?.condition == "the gate to open")
        #expect(!gate.isOpen)
        #expect(gate.arrivals == 1)
        gate.open()
        try await gate.pass(within: .zero)
    }

    @Test("cancelling a parked task wakes it with CancellationError, and the gate stays closed")
    func cancellationWakesAParkedTask() async throws {
        let parked = Task { try await gate.pass() }
        try await gate.waitForArrivals(1)
        parked.cancel()

        await #expect(throws: CancellationError.self) { try await parked.value }
        #expect(!gate.isOpen)
    }

    @Test("a task already cancelled when it reaches the gate does not park")
    func cancelledBeforeArriving() async throws {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await gate.pass()
        }

        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(gate.arrivals == 1)
    }

    @Test(
        "cancelling a task waiting for arrivals wakes it with CancellationError and takes it out of the line; the other waiters are served"
    )
    func cancellationWakesAnArrivalWaiter() async throws {
        let cancelled = Task {
            do {
                try await gate.waitForArrivals(1)
                timeline.append("returned")
            } catch {
                timeline.append("cancelled")
            }
        }
        let kept = Task { try await gate.waitForArrivals(1) }
        try await waitUntil("both tasks wait for an arrival") { gate.arrivalWaiters.suspended == 2 }

        cancelled.cancel()

        // Bounded: a wait that ignored cancellation would never wake, and the test would hang.
        try await waitUntil("the cancelled task has woken", within: .seconds(20)) {
            !timeline.entriesSoFar.isEmpty
        }
        #expect(timeline.entriesSoFar == ["cancelled"])
        #expect(gate.arrivalWaiters.suspended == 1)
        #expect(gate.arrivalWaiters.aboutToSuspend == 0)

        // The arrival resumes the waiter left in the line, not the withdrawn one again.
        gate.open()
        try await gate.pass()
        try await kept.value
        #expect(gate.arrivalWaiters.suspended == 0)
        try await gate.waitForArrivals(1)
    }

    @Test("a task already cancelled when it waits for arrivals throws at once and never enters the line")
    func cancelledBeforeWaitingForArrivals() async throws {
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await gate.waitForArrivals(1)
                timeline.append("returned")
            } catch {
                timeline.append("cancelled")
            }
        }

        try await waitUntil("the cancelled task has returned", within: .seconds(20)) {
            !timeline.entriesSoFar.isEmpty
        }
        await waiting.value
        #expect(timeline.entriesSoFar == ["cancelled"])
        #expect(gate.arrivalWaiters.suspended == 0)
        #expect(gate.arrivalWaiters.aboutToSuspend == 0)
        gate.open()
        try await gate.pass()
        #expect(gate.arrivals == 1)
    }

    @Test("a pass after the gate opened returns at once")
    func passAfterOpen() async throws {
        gate.open()

        try await gate.pass()

        #expect(gate.arrivals == 1)
    }
}

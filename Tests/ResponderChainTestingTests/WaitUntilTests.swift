import ResponderChain
import ResponderChainTesting
import Testing

@Suite("Waiting until a condition holds", .timeLimit(.minutes(1)))
struct WaitUntilTests {
    @Test("it returns once another task makes the condition true, having checked it before")
    func returnsWhenTheConditionHolds() async throws {
        let state = Gate()  // the condition: this gate has opened
        let firstCheck = Gate()  // opened by the first check, which the task below waits for
        let opener = Task {
            try await firstCheck.pass()
            state.open()
        }
        var checks = 0

        try await waitUntil("the state gate has opened") {
            checks += 1
            firstCheck.open()
            return state.isOpen
        }

        #expect(state.isOpen)
        #expect(checks >= 2)
        try await opener.value
    }

    @Test("it returns at once when the condition already holds, even with no time to wait")
    func returnsAtOnceWhenTheConditionAlreadyHolds() async throws {
        var checks = 0

        try await waitUntil("the condition holds", within: .zero) {
            checks += 1
            return true
        }

        #expect(checks == 1)
    }

    @Test("it throws WaitTimedOut, naming the condition and the limit, once the limit has passed")
    func throwsWhenTheLimitPasses() async throws {
        let limit = Duration.milliseconds(50)
        let error = await expectTimedOut(at: limit) {
            try await waitUntil("a condition that never holds", within: limit) { false }
        }

        let timedOut = try #require(error)
        #expect(timedOut.condition == "a condition that never holds")
        #expect(timedOut.limit == limit)
        #expect(timedOut.description.contains("until \"a condition that never holds\""))
        #expect(timedOut.description.contains("\(limit)"))
    }

    @Test("it throws CancellationError when its task is cancelled while it polls")
    func throwsWhenCancelledWhilePolling() async throws {
        try await expectCancellationEndsTheWait { neverHolds in
            try await waitUntil("a condition that never holds", within: .seconds(20)) { neverHolds() }
        }
    }

    @Test("it throws CancellationError when its task is cancelled before it starts")
    func throwsWhenAlreadyCancelled() async throws {
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await waitUntil("a condition that never holds", within: .seconds(20)) { false }
        }

        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test("the signal-driven form returns once a change it is told of makes the condition true")
    func returnsOnAChange() async throws {
        let (changes, changed) = AsyncStream.makeStream(of: Void.self)
        let state = Gate()  // the condition: this gate has opened
        let firstCheck = Gate()  // opened by the first check, which the task below waits for
        let opener = Task {
            try await firstCheck.pass()
            state.open()
            changed.yield()
        }
        var checks = 0

        try await confirmation("the wait returned") { returned in
            try await waitUntil("the state gate has opened", within: .seconds(20), on: changes) {
                checks += 1
                firstCheck.open()
                return state.isOpen
            }
            returned()
        }

        #expect(checks == 2)
        try await opener.value
    }

    @Test("the signal-driven form throws WaitTimedOut at its limit when no change makes it hold")
    func signalFormTimesOut() async throws {
        let (changes, changed) = AsyncStream.makeStream(of: Void.self)
        changed.yield()

        let error = await expectTimedOut(at: .milliseconds(50)) {
            try await waitUntil("a condition that never holds", within: .milliseconds(50), on: changes) {
                false
            }
        }

        #expect(error?.condition == "a condition that never holds")
        #expect(error?.arrived == "it did not hold")
    }

    @Test("the signal-driven form throws WaitTimedOut at once when its changes end and it does not hold")
    func signalFormEndsWithItsChanges() async throws {
        let (changes, changed) = AsyncStream.makeStream(of: Void.self)
        changed.finish()

        let error = await #expect(throws: WaitTimedOut.self) {
            try await waitUntil("a condition that never holds", within: .seconds(20), on: changes) { false }
        }

        #expect(error?.arrived == "its changes ended, and it did not hold")
    }

    @Test("the signal-driven form throws CancellationError when its task is cancelled while it waits")
    func signalFormIsCancellable() async throws {
        let (changes, _) = AsyncStream.makeStream(of: Void.self)
        try await expectCancellationEndsTheWait { neverHolds in
            try await waitUntil("a condition that never holds", within: .seconds(20), on: changes) {
                neverHolds()
            }
        }
    }

    @Test("the form observing a system re-checks the condition when a post through it ends")
    func observingASystem() async throws {
        let system = EventSystem()
        let gate = Gate()
        let root = Probe("root", .park(gate, then: .handled), root: true, system: system)
        let ticket = await root.post(Signal())
        try await gate.waitForArrivals(1)
        var checks = 0

        try await confirmation("the wait returned") { returned in
            // The handler's log is written before the post's outcome reaches the stream.
            try await waitUntil("the post's handler has ended", within: .seconds(20), observing: system) {
                checks += 1
                if checks == 1 { gate.open() }  // the first check lets the post end
                return await root.log.contains("end Signal")
            }
            returned()
        }

        #expect(await ticket.outcome.kind == .handled)
    }

    /// Starts `wait` in a task, handing it the condition to wait for: one that never holds, and
    /// notes its first check. Once the wait has checked it (it is waiting), cancels the task, and
    /// expects the wait to throw `CancellationError`: were the cancellation ignored, the wait would
    /// end with ``WaitTimedOut`` after its limit.
    private func expectCancellationEndsTheWait(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ wait: @escaping @Sendable (_ neverHolds: @escaping @Sendable () -> Bool) async throws -> Void
    ) async throws {
        let checked = Gate()  // opened by the first check: the wait is waiting
        let waiting = Task {
            try await wait {
                checked.open()
                return false
            }
        }
        try await checked.pass()

        waiting.cancel()

        await #expect(throws: CancellationError.self, sourceLocation: sourceLocation) {
            try await waiting.value
        }
    }
}

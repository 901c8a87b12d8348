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
        let clock = ContinuousClock()
        let start = clock.now

        let error = await #expect(throws: WaitTimedOut.self) {
            try await waitUntil("a condition that never holds", within: limit) { false }
        }

        #expect(clock.now - start >= limit)
        let timedOut = try #require(error)
        #expect(timedOut.condition == "a condition that never holds")
        #expect(timedOut.limit == limit)
        #expect(timedOut.description.contains("\"a condition that never holds\""))
        #expect(timedOut.description.contains("\(limit)"))
    }

    @Test("it throws CancellationError when its task is cancelled while it polls")
    func throwsWhenCancelledWhilePolling() async throws {
        let checked = Gate()  // opened by the first check: the wait is polling
        let waiting = Task {
            try await waitUntil("a condition that never holds", within: .seconds(20)) {
                checked.open()
                return false
            }
        }
        try await checked.pass()

        waiting.cancel()

        // Were the cancellation ignored, the wait would end with WaitTimedOut after its limit.
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test("it throws CancellationError when its task is cancelled before it starts")
    func throwsWhenAlreadyCancelled() async throws {
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await waitUntil("a condition that never holds", within: .seconds(20)) { false }
        }

        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}

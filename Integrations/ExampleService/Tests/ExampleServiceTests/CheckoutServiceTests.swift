import ExampleService
import InMemoryLogging
import Logging
import MetricsTestKit
import ResponderChain
import ServiceLifecycle
import Testing

/// An order that arrives after the shutdown.
private struct LateOrder: Event {}

@Suite("The Guide's checkout service", .timeLimit(.minutes(1)))
struct CheckoutServiceTests {
    @Test("runs, handles what the intake posts, counts it, and on shutdown drains, refuses and logs")
    func runsAndDrains() async throws {
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "checkout") { _ in logs }
        logger.logLevel = .info
        let metrics = TestMetrics()
        let (orders, intakeFeed) = AsyncStream.makeStream(of: Int.self)
        let desk = OrderDesk()

        let group = try makeCheckoutService(
            intake: OrderIntake(orders: orders, desk: desk), logger: logger, metrics: metrics)
        // The service bootstrapped the process-wide system: the desk, which names none, uses it.
        let outcomes = EventSystem.default.observeOutcomes(buffering: .keepingOldest(1_000))

        try await withThrowingTaskGroup(of: Void.self) { running in
            running.addTask { try await group.run() }

            for id in 0..<10 { intakeFeed.yield(id) }
            var handled = 0
            for await finished in outcomes {
                #expect(finished.outcome.isHandled)
                handled += 1
                if handled == 10 { break }
            }
            #expect(
                try metrics.expectCounter(
                    "responder_chain_outcomes_total", [("kind", "handled"), ("chain", "checkout")]
                ).totalValue == 10)

            await group.triggerGracefulShutdown()
            try await running.waitForAll()
        }

        #expect(await desk.placed == Array(0..<10))
        #expect(EventSystem.default.isShuttingDown)
        // After the drain, a post is refused, dead-lettered and logged as one.
        let late = await desk.post(LateOrder())
        guard case .rejected(let rejection) = late.finishedOutcome else {
            Issue.record("the late post was not refused: \(String(describing: late.finishedOutcome))")
            return
        }
        #expect(rejection.reason == .shuttingDown)
        let messages = logs.entries.map(\.message.description)
        #expect(messages.contains("event system drained"))
        #expect(logs.entries.contains { $0.level == .warning && $0.message.description == "dead letter" })
        #expect(
            try metrics.expectCounter("responder_chain_dead_letters_total", [("chain", "checkout")])
                .totalValue == 1)
        // The observation stream ended with the drain.
        var rest = 0
        for await _ in outcomes { rest += 1 }
        #expect(rest == 0)
    }
}

import ExampleHTTPService
import Foundation
import InMemoryTracing
import ResponderChain
import ServiceLifecycle
import Synchronization
import Testing
import Tracing

/// The real service on 127.0.0.1, through real sockets. Serialized: the suites share the
/// process's tracing backend, and two cores.
@Suite(.serialized) struct OrderServiceTests {
    @Test func anOrderCarriesTheRequestDataAndTheRequestSpanIsTheParentOfTheChainsSpans() async throws {
        try await RunningService.with { running in
            tracing.clearAll()
            let answer = try #require(
                await running.order(sku: "A-1", quantity: 2, user: "alice", requestID: "r-1").response)
            #expect(answer.status == 201)
            #expect(answer.headers["x-request-id"] == "r-1")
            #expect(answer.body.contains(#""order":1"#))
            let reply = try JSONDecoder().decode(OrderReply.self, from: Data(answer.body.utf8))
            let placed = try #require(await running.service.book.order(1))
            #expect(
                placed
                    == PlacedOrder(
                        number: 1, sku: "A-1", quantity: 2, user: "alice", requestID: "r-1",
                        eventID: reply.eventID))

            let spans = tracing.finishedSpans
            let request = try #require(spans.first { $0.operationName == "/orders" })
            let hop = try #require(spans.first { $0.operationName == "PlaceOrder at OrderBook" })
            #expect(hop.traceID == request.traceID)
            #expect(hop.parentSpanID == request.spanID)
        }
    }

    @Test func routesAnswerByTheTable() async throws {
        try await RunningService.with { running in
            let unknown = try #require(await running.order(sku: "Z-9").response)
            #expect(unknown.status == 422)
            #expect(unknown.body.contains(#""error":"unhandled""#))

            let tooMany = try #require(await running.order(sku: "C-3", quantity: 11).response)
            #expect(tooMany.status == 500)
            #expect(tooMany.body.contains(#""error":"failed: OutOfStock""#))

            #expect(await running.order(user: nil).response?.status == 401)
            #expect(await running.order(quantity: 0).response?.status == 400)

            let accepted = try #require(await running.order("/orders/async").response)
            #expect(accepted.status == 202)
            // The event id in full, so that a client can name the post after a restart too.
            #expect(accepted.body.contains(/"eventID":"[0-9a-f]{16}#[0-9]+"/))

            #expect(await running.order("/orders/direct").response?.status == 201)
            #expect(await running.order("/orders/direct", sku: "Z-9").response?.status == 422)
            let directTooMany = try #require(
                await running.order("/orders/direct", sku: "C-3", quantity: 11).response)
            #expect(directTooMany.status == 500)
            #expect(directTooMany.body.contains(#""error":"failed: OutOfStock""#))

            await running.service.group.triggerGracefulShutdown()
            let report = try #require(await running.shutdownReport())
            #expect(report.endedEarly == 0)
            #expect(report.refused == 0)
            #expect(await running.service.book.placedCount == 2)  // the awaited and the posted order
            #expect(running.record.deadLetters.load(ordering: .relaxed) == 1)  // the unhandled order
        }
    }

    @Test func aChainThatRefusesPostsAnswers503WithRetryAfter() async throws {
        try await RunningService.with { running in
            _ = await running.service.system.shutDown(gracePeriod: .zero)
            let answer = try #require(await running.order("/orders/async").response)
            #expect(answer.status == 503)
            #expect(answer.headers["retry-after"] == "5")
            #expect(answer.body.contains("rejected: system shutting down"))
        }
    }

    @Test func metricsCountTheOutcomesAndTheDeadLetters() async throws {
        try await RunningService.with { running in
            for _ in 0..<3 { #expect(await running.order().response?.status == 201) }
            #expect(await running.order(sku: "Z-9").response?.status == 422)
            #expect(await running.order(sku: "C-3", quantity: 11).response?.status == 500)

            let scrape = try #require(
                await RawHTTPClient.request(port: running.metricsPort, method: "GET", path: "/metrics")
                    .response)
            #expect(scrape.status == 200)
            #expect(scrape.headers["content-type"]?.hasPrefix("text/plain") == true)
            let metrics = PrometheusText(scrape.body)
            #expect(
                metrics.value("responder_chain_outcomes_total", ["chain=\"orders\"", "kind=\"handled\""]) == 3
            )
            #expect(
                metrics.value("responder_chain_outcomes_total", ["chain=\"orders\"", "kind=\"unhandled\""])
                    == 1)
            #expect(
                metrics.value("responder_chain_outcomes_total", ["chain=\"orders\"", "kind=\"failed\""]) == 1)
            #expect(metrics.value("responder_chain_dead_letters_total", ["chain=\"orders\""]) == 1)
        }
    }
}

/// Prometheus text, read line by line.
struct PrometheusText {
    let lines: [Substring]
    init(_ text: String) { lines = text.split(separator: "\n") }

    /// The value of the sample `name` whose labels include each of `labels`.
    func value(_ name: String, _ labels: [String]) -> Double? {
        lines.lazy
            .filter { $0.hasPrefix(name + "{") || $0.hasPrefix(name + " ") }
            .first { line in labels.allSatisfy { line.contains($0) } }
            .flatMap { $0.split(separator: " ").last }
            .flatMap { Double($0) }
    }
}

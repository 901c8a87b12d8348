import ExampleHTTPService
import InMemoryTracing
import Logging
import ResponderChain
import ServiceLifecycle
import Synchronization
import Tracing

/// The process's tracing backend for these tests, bootstrapped once, on first use.
let tracing: InMemoryTracer = {
    let tracer = InMemoryTracer()
    InstrumentationSystem.bootstrap(tracer)
    return tracer
}()

/// What a running service reported: its dead letters and the chain's shutdown report.
final class ServiceRecord: Sendable {
    let deadLetters = Atomic<Int>(0)
    let shutdownReport = AsyncStream<EventSystem.ShutdownReport>.makeStream()
}

/// A running ``OrderService`` on free ports of 127.0.0.1.
struct RunningService: Sendable {
    let service: OrderService
    let port: Int
    let metricsPort: Int
    let record: ServiceRecord

    /// Runs a service for `body`, then shuts it down gracefully (unless `body` did) and waits for
    /// the group to return.
    static func with<Result>(
        configure: (inout OrderServiceConfiguration) -> Void = { _ in },
        _ body: (RunningService) async throws -> Result
    ) async throws -> Result {
        _ = tracing
        var configuration = OrderServiceConfiguration()
        configuration.port = 0
        configuration.metricsPort = 0
        configure(&configuration)
        let record = ServiceRecord()
        let (ports, portsContinuation) = AsyncStream.makeStream(of: (String, Int).self)
        let service = try await OrderService(
            configuration: configuration,
            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
            gracefulShutdownSignals: [],
            onServerRunning: { portsContinuation.yield(("orders", $0)) },
            onMetricsServerRunning: { portsContinuation.yield(("metrics", $0)) },
            onDeadLetter: { _ in record.deadLetters.add(1, ordering: .relaxed) },
            onShutdown: { report in
                record.shutdownReport.continuation.yield(report)
                record.shutdownReport.continuation.finish()
            })
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await service.group.run() }
            var found: [String: Int] = [:]
            for await (name, port) in ports {
                found[name] = port
                if found.count == 2 { break }
            }
            let running = RunningService(
                service: service, port: found["orders"] ?? 0, metricsPort: found["metrics"] ?? 0,
                record: record)
            let result = try await body(running)
            await service.group.triggerGracefulShutdown()
            try await group.waitForAll()
            return result
        }
    }

    /// The chain's shutdown report (once the group has shut down).
    func shutdownReport() async -> EventSystem.ShutdownReport? {
        await record.shutdownReport.stream.first { _ in true }
    }

    /// `POST path` with a JSON order from `user`.
    func order(
        _ path: String = "/orders", sku: String = "A-1", quantity: Int = 1, user: String? = "alice",
        requestID: String? = nil, idempotencyKey: String? = nil
    ) async -> RequestResult {
        var headers: [(String, String)] = []
        if let idempotencyKey { headers.append(("Idempotency-Key", idempotencyKey)) }
        if let user { headers.append(("X-User", user)) }
        if let requestID { headers.append(("X-Request-ID", requestID)) }
        return await RawHTTPClient.request(
            port: port, path: path, headers: headers, body: #"{"sku":"\#(sku)","quantity":\#(quantity)}"#)
    }
}

extension RequestResult {
    /// The answer, if there was one.
    var response: RawResponse? {
        if case .answered(let response) = self { return response }
        return nil
    }
}

// The order service as a program: `swift run -c release example-http-service [port] [metrics-port]`.
// SIGTERM or SIGINT shuts it down gracefully. ORDERS_STORAGE=sqlite (with ORDERS_SQLITE_PATH and
// ORDERS_SQLITE_DURABILITY) keeps posted orders in an SQLite file that survives a crash;
// ORDERS_STORAGE=postgres (with ORDERS_POSTGRES_URL, and ORDERS_POSTGRES_LEASE_MS,
// ORDERS_POSTGRES_CONSUMER) shares them in a PostgreSQL database with the other instances.
import ExampleHTTPService
import Foundation
import Logging
import ResponderChain
import ServiceLifecycle

var configuration = OrderServiceConfiguration()
let arguments = CommandLine.arguments.dropFirst()
if let port = arguments.first.flatMap({ Int($0) }) { configuration.port = port }
if let port = arguments.dropFirst().first.flatMap({ Int($0) }) { configuration.metricsPort = port }
// ORDERS_SPANS=0 and ORDERS_METRICS=0 leave the chain's tracers out (load.sh measures their cost).
let environment = ProcessInfo.processInfo.environment
configuration.traceSpans = environment["ORDERS_SPANS"] != "0"
configuration.recordMetrics = environment["ORDERS_METRICS"] != "0"
// ORDERS_SEND_TIMEOUT=0 sends with no deadline.
if environment["ORDERS_SEND_TIMEOUT"] == "0" { configuration.sendTimeout = nil }
configuration.adminToken = environment["ORDERS_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
if let attempts = environment["ORDERS_RETRY_ATTEMPTS"].flatMap(Int.init), attempts > 1 {
    // A posted order that fails is tried up to this many times, 1 s doubling to 5 min apart.
    configuration.retryPolicies.standard = EventSystem.RetryPolicy(
        maximumAttempts: attempts, retrying: [.failed])
}
// ORDERS_STORAGE=memory (the default), sqlite or postgres; see OrderStorage(environment:).
configuration.storage = try OrderStorage(environment: environment)
let logger = {
    var logger = Logger(label: "orders")
    logger.logLevel = .info
    return logger
}()
let host = configuration.host
let service = try await OrderService(
    configuration: configuration, logger: logger,
    onServerRunning: { port in logger.info("orders listening on \(host):\(port)") },
    onMetricsServerRunning: { port in logger.info("metrics listening on \(host):\(port)") })
try await service.group.run()

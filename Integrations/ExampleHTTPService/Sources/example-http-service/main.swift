// The order service as a program: `swift run -c release example-http-service [port] [metrics-port]`.
// SIGTERM or SIGINT shuts it down gracefully.
import ExampleHTTPService
import Logging
import ServiceLifecycle

var configuration = OrderServiceConfiguration()
let arguments = CommandLine.arguments.dropFirst()
if let port = arguments.first.flatMap({ Int($0) }) { configuration.port = port }
if let port = arguments.dropFirst().first.flatMap({ Int($0) }) { configuration.metricsPort = port }
var logger = Logger(label: "orders")
logger.logLevel = .info
let host = configuration.host
let service = OrderService(
    configuration: configuration, logger: logger,
    onServerRunning: { port in print("orders listening on \(host):\(port)") },
    onMetricsServerRunning: { port in print("metrics listening on \(host):\(port)") })
try await service.group.run()

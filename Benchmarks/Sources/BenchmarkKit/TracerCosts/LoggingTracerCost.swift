import Logging
import ResponderChain
import ResponderChainLogging

extension TracerCost {
    /// `LoggingTracer` (swift-log) when its lines are below the logger's level.
    static let logging = TracerCost(
        id: "logging-tracer", title: "7d LoggingTracer",
        note: "7d: the integrations' tracers (swift-log, swift-distributed-tracing, swift-metrics) "
            + "against the same chain with no tracer, in alternation; overhead per hop = the difference",
        variants: {
            [
                Variant(
                    name: "logger at error, tagsHandlerLines: false (declined)",
                    tracer: LoggingTracer(logger: logger(at: .error), tagsHandlerLines: false)),
                Variant(
                    name: "logger at error, tagging handler lines",
                    tracer: LoggingTracer(logger: logger(at: .error))),
                .loggingBelowLevel,
            ]
        })

    /// A logger whose handler writes nothing, at `level`.
    nonisolated static func logger(at level: Logger.Level) -> Logger {
        Logger(label: "events") { _ in DiscardingLogHandler(logLevel: level) }
    }
}

extension TracerCost.Variant {
    /// A `LoggingTracer` tagging handler lines, whose debug lines are below its logger's level.
    static var loggingBelowLevel: Self {
        Self(
            name: "logger at info (debug lines filtered), tagging",
            tracer: LoggingTracer(logger: TracerCost.logger(at: .info)))
    }
}

/// A handler that writes nothing, at the level it is given.
struct DiscardingLogHandler: LogHandler {
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {}
}

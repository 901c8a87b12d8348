public import Logging
public import ResponderChain

/// A ResponderChain tracer that logs every point event through a swift-log `Logger`, with the
/// event's correlation id (and, for hops, the hop number, responder, isolation, duration and
/// added information) as metadata.
///
/// Handled sends log at `handledLevel` (`.debug` by default); dead letters log at `.warning`, and
/// every other outcome (unhandled, interrupted, cycle, cancelled, timed out, failed) at
/// `.notice`. It is a `ScopingTracer`: around each hop it binds ``eventID`` so that a
/// `Logger.MetadataProvider` (see ``metadataProvider``) tags what the *handlers* log with the
/// event's id too. Its scope needs nothing from the sender's task (`Hop.Scope<Never>`), so it
/// captures nothing.
///
/// ```swift
/// let logger = Logger(label: "checkout.events")
/// let checkout = EventSystem(tracer: LoggingTracer(logger: logger))
/// ```
///
/// **Which sends it traces.** Its gate declines a send when nothing the send could produce would
/// reach the log: none of its own lines could pass the logger's level (the logger is above
/// `handledLevel` and `.warning`, say at `.error`) and it does not tag the handlers' lines
/// (`tagsHandlerLines: false`). A declined send costs what an untraced send costs. Otherwise the
/// send is traced, and a line below the logger's level costs a level comparison: its metadata is
/// not built.
public struct LoggingTracer: ResponderChain.ScopingTracer {
    /// The logger the point events go to.
    public let logger: Logger
    /// The level of the lines of a send that ends handled (its `sent`, hops and outcome).
    public let handledLevel: Logger.Level
    /// Whether each hop binds ``eventID`` around the handlers, for ``metadataProvider`` to tag
    /// their lines. While it does, the tracer traces every send, whatever the logger's level.
    public let tagsHandlerLines: Bool

    /// A tracer that logs to `logger`, handled sends at `handledLevel`; with `tagsHandlerLines`,
    /// it binds ``eventID`` around each hop's handlers.
    public init(logger: Logger, handledLevel: Logger.Level = .debug, tagsHandlerLines: Bool = true) {
        self.logger = logger
        self.handledLevel = handledLevel
        self.tagsHandlerLines = tagsHandlerLines
    }

    /// The correlation id of the event whose handlers are running, bound around each hop.
    @TaskLocal public static var eventID: EventID?

    /// Tags every line logged inside a handler with `event.id` (the id's full form,
    /// `5f1c09d2e4b7a836#42`, unique across processes), when a ``LoggingTracer`` scopes
    /// the hop. Pass it to `LoggingSystem.bootstrap(_:metadataProvider:)` or to a `Logger`.
    public static let metadataProvider = Logger.MetadataProvider {
        eventID.map { ["event.id": "\($0.debugDescription)"] } ?? [:]
    }

    /// Declines a send that would leave no trace: none of the tracer's lines (at `handledLevel`,
    /// `.notice` or `.warning`) could pass the logger's level, and it does not tag the handlers'
    /// lines.
    public func shouldTrace(_ event: any Event, from source: EventSource) -> Bool {
        tagsHandlerLines || logger.logLevel <= max(handledLevel, .warning)
    }

    /// Binds ``eventID`` around the hop's handlers (when ``tagsHandlerLines``).
    public nonisolated(nonsending) func withHop(
        _ scope: Hop.Scope<Never>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        guard tagsHandlerLines else { return try await body() }
        return try await Self.$eventID.withValue(scope.eventID) { try await body() }
    }

    /// Logs `event`, if its line's level passes the logger's.
    public func record(_ event: TraceEvent) {
        let level = level(of: event)
        // Compared before any metadata is built: a filtered line costs nothing more.
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = ["event.id": "\(event.eventID.debugDescription)"]
        switch event {
        case .sent(let sent):
            metadata["source"] = "\(sent.source)"
            if let queued = sent.queued { metadata["queued"] = "\(queued)" }
            logger.log(level: level, "sent \(sent.eventName)", metadata: metadata)
        case .hopEntered:
            break
        case .hopLeft(let record):
            metadata["hop"] = "\(record.hop.number)"
            metadata["responder"] = "\(record.hop.responder)"
            metadata["isolation"] = "\(record.hop.isolation)"
            metadata["duration"] = "\(record.duration)"
            if !record.added.isEmpty {
                metadata["added"] = .array(record.added.map { .string($0.description) })
            }
            logger.log(level: level, "hop \(record.resultDescription)", metadata: metadata)
        case .deadLettered(let outcome):
            logger.log(level: level, "dead letter: \(outcome)", metadata: metadata)
        case .finished(let outcome):
            metadata["outcome"] = "\(outcome.kind)"
            logger.log(level: level, "\(outcome)", metadata: metadata)
        }
    }

    /// The level of `event`'s line.
    private func level(of event: TraceEvent) -> Logger.Level {
        switch event {
        case .sent, .hopEntered, .hopLeft: return handledLevel
        case .deadLettered: return .warning
        case .finished(let outcome): return outcome.isHandled ? handledLevel : .notice
        }
    }
}

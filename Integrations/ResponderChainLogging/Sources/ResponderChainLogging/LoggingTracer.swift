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
/// event's id too. Its scope needs nothing from the sender's task (`HopScope<Never>`), so it
/// captures nothing.
///
/// ```swift
/// let logger = Logger(label: "checkout.events")
/// let checkout = EventSystem(tracer: LoggingTracer(logger: logger))
/// ```
public struct LoggingTracer: ResponderChain.ScopingTracer {
    /// The logger the point events go to.
    public let logger: Logger
    /// The level of the lines of a send that ends handled (its `sent`, hops and outcome).
    public let handledLevel: Logger.Level

    /// A tracer that logs to `logger`, handled sends at `handledLevel`.
    public init(logger: Logger, handledLevel: Logger.Level = .debug) {
        self.logger = logger
        self.handledLevel = handledLevel
    }

    /// The correlation id of the event whose handlers are running, bound around each hop.
    @TaskLocal public static var eventID: EventID?

    /// Tags every line logged inside a handler with `event.id`, when a ``LoggingTracer`` scopes
    /// the hop. Pass it to `LoggingSystem.bootstrap(_:metadataProvider:)` or to a `Logger`.
    public static let metadataProvider = Logger.MetadataProvider {
        eventID.map { ["event.id": "\($0)"] } ?? [:]
    }

    /// Binds ``eventID`` around the hop's handlers.
    public nonisolated(nonsending) func withHop(
        _ scope: HopScope<Never>,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition {
        try await Self.$eventID.withValue(scope.eventID) { try await body() }
    }

    /// Logs `event`.
    public func record(_ event: TraceEvent) {
        var metadata: Logger.Metadata = ["event.id": "\(event.eventID)"]
        switch event {
        case .sent(let sent):
            metadata["source"] = "\(sent.source)"
            if let queued = sent.queued { metadata["queued"] = "\(queued)" }
            logger.log(level: handledLevel, "sent \(sent.eventName)", metadata: metadata)
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
            logger.log(level: handledLevel, "hop \(record.resultDescription)", metadata: metadata)
        case .deadLettered(let outcome):
            logger.warning("dead letter: \(outcome)", metadata: metadata)
        case .finished(let outcome):
            metadata["outcome"] = "\(outcome.kind)"
            logger.log(level: outcome.isHandled ? handledLevel : .notice, "\(outcome)", metadata: metadata)
        }
    }
}

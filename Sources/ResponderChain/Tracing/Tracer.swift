/// Observes events as they travel: a scope around every hop, and point events.
///
/// Install a tracer on an ``EventRouter`` (for a chain) or in ``SendOptions`` (for one send).
/// With none installed, routing pays one `nil` check per hop.
///
/// ```swift
/// struct LoggingTracer: Tracer {
///     nonisolated(nonsending) func withHop(
///         _ hop: HopScope, _ body: nonisolated(nonsending) () async throws -> Disposition
///     ) async throws -> Disposition {
///         let disposition = try await body()
///         print(hop.hop, hop.responder, disposition)
///         return disposition
///     }
///     func record(_ event: TraceEvent) { print(event) }
/// }
/// ```
public protocol Tracer: Sendable {
    /// Wraps one hop: the responder's handler runs inside `body`, on the responder's isolation.
    /// Open a span or bind task-locals here. Call `body` exactly once and return (or rethrow)
    /// what it returns.
    nonisolated(nonsending) func withHop(
        _ hop: HopScope,
        _ body: nonisolated(nonsending) () async throws -> Disposition
    ) async throws -> Disposition

    /// Receives a point event.
    func record(_ event: TraceEvent)
}

/// The hop a tracer's ``Tracer/withHop(_:_:)`` wraps.
public struct HopScope: Sendable {
    /// The send's correlation identifier.
    public let eventID: EventID
    /// The hop's number: 1 at the first responder.
    public let hop: Int
    /// The responder being visited.
    public let responder: ResponderID
    /// The event's ``Event/traceName``.
    public let eventName: String
}

/// A point event reported to a ``Tracer``.
public enum TraceEvent: Sendable {
    /// A send began.
    case sent(eventID: EventID, event: String, source: EventSource)
    /// The chain led back to a visited responder.
    case cycle(eventID: EventID, repeated: ResponderID)
    /// A send ended with `outcome`.
    case finished(Outcome)
    /// An unhandled or interrupted event was given to the dead-letter sink.
    case deadLettered(Outcome)
}

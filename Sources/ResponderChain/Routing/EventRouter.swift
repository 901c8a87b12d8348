/// The routing configuration shared by the responders of a chain: its tracer and its dead-letter
/// sink.
///
/// Each responder names its router (``Responder/router``, by default ``EventRouter/default``);
/// a send uses the sender's router unless ``SendOptions`` overrides a part of it. To configure a
/// chain, give its responders one router:
///
/// ```swift
/// let checkout = EventRouter(tracer: RecordingTracer(), deadLetters: DeadLetterSink { letter in
///     await audit.record(letter)
/// })
///
/// actor Order: Responder {
///     nonisolated var router: EventRouter { checkout }
///     …
/// }
/// ```
public final class EventRouter: Sendable {
    /// The router of responders that name none: no tracer, no dead-letter sink.
    public static let `default` = EventRouter()

    /// The tracer every send through this router reports to, unless the send names its own.
    public let tracer: (any Tracer)?
    /// Where unhandled and interrupted events go, unless the send names its own sink.
    public let deadLetters: DeadLetterSink?

    /// A router with an optional tracer and dead-letter sink.
    public init(tracer: (any Tracer)? = nil, deadLetters: DeadLetterSink? = nil) {
        self.tracer = tracer
        self.deadLetters = deadLetters
    }
}

/// What a send's tracing needs from the moment it was sent: its correlation identifier and the
/// tracer bound to the context it captured in the sender's task.
///
/// **The seam for posted (queued) delivery.** Task-locals do not follow an event into a queue.
/// Posting code captures at post time and hands the capture to ``Router`` at delivery time:
///
/// ```swift
/// // at post time, in the poster's task:
/// let trace = TraceCapture.posting(from: sender, options: options)   // trace.eventID for the ticket
/// // later, in the queue's task:
/// await Router.send(event, from: sender, source: source, options: options, signal: signal,
///                   trace: trace)
/// ```
///
/// An awaited send captures at send time (``Router/send(_:from:source:options:signal:trace:)``
/// does it when given none).
struct TraceCapture: Sendable {
    /// The send's correlation identifier, fixed at capture time.
    let eventID: EventID
    /// The tracer, bound to what it captured; `nil` when no tracer is installed.
    let trace: (any ActiveTrace)?
    /// When a posted event was captured (only when traced), to report its time in the queue.
    let postedAt: ContinuousClock.Instant?

    /// A capture for an awaited send through `tracer`: a new identifier and, when traced, the
    /// tracer's context from the current task.
    init(tracer: (any Tracer)?) {
        self.eventID = EventID.next()
        self.trace = tracer?.bindCapturedContext()
        self.postedAt = nil
    }

    private init(eventID: EventID, trace: (any ActiveTrace)?, postedAt: ContinuousClock.Instant?) {
        self.eventID = eventID
        self.trace = trace
        self.postedAt = postedAt
    }

    /// Captures, at post time and in the poster's task, the tracing of an event `sender` posts
    /// with `options`: the tracer the send will use (the options', or the sender's router's), its
    /// context, a new correlation identifier, and the posting instant (read only when traced).
    static func posting(from sender: any Responder, options: SendOptions) -> TraceCapture {
        let tracer = options.tracer ?? sender.router.tracer
        return TraceCapture(
            eventID: EventID.next(),
            trace: tracer?.bindCapturedContext(),
            postedAt: tracer == nil ? nil : ContinuousClock.now
        )
    }

    /// How long a posted event waited between its capture and now; `nil` for an awaited send.
    func queuedDuration() -> Duration? {
        postedAt.map { $0.duration(to: .now) }
    }
}

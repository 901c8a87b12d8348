/// What a send needs from the moment it started, in the sender's task: its event system, its
/// correlation identifier, and the tracer bound to the context it captured there.
///
/// **The seam for posted (queued) delivery.** Task-locals do not follow an event into a queue,
/// and the sender's system is read once. Posting captures at post time, in the poster's task,
/// and hands the capture to ``Router`` at delivery time; an awaited send captures when it
/// starts, in ``Router/send(_:from:source:options:signal:trace:)``.
@usableFromInline
struct TraceCapture: Sendable {
    /// The event system the send goes through.
    let system: EventSystem
    /// The send's correlation identifier, fixed at capture time.
    let eventID: EventID
    /// The tracer, bound to what it captured; `nil` when no tracer is installed.
    let trace: (any ActiveTrace)?
    /// When a posted event was captured (only when traced), to report its time in the queue.
    let postedAt: Moment?

    /// A capture for an awaited send through `system` with `options`: a new identifier and, when
    /// traced (by the options' tracer, or the system's), the tracer's context from this task.
    init(system: EventSystem, options: SendOptions) {
        self.system = system
        self.eventID = EventID.next()
        self.trace = (options.tracer ?? system.tracer)?.bindCapturedContext()
        self.postedAt = nil
    }

    private init(
        system: EventSystem, eventID: EventID, trace: (any ActiveTrace)?, postedAt: Moment?
    ) {
        self.system = system
        self.eventID = eventID
        self.trace = trace
        self.postedAt = postedAt
    }

    /// Captures, at post time and in the poster's task, the tracing of an event posted through
    /// `system` with `options`: the tracer the send will use (the options', or the system's), its
    /// context, a new correlation identifier, and the posting instant (read only when traced).
    static func posting(through system: EventSystem, options: SendOptions) -> TraceCapture {
        let tracer = options.tracer ?? system.tracer
        return TraceCapture(
            system: system,
            eventID: EventID.next(),
            trace: tracer?.bindCapturedContext(),
            postedAt: tracer == nil ? nil : Moment.now
        )
    }

    /// How long a posted event waited between its capture and now; `nil` for an awaited send.
    func queuedDuration() -> Duration? {
        postedAt.map(\.durationUntilNow)
    }
}

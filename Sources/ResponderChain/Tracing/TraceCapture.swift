/// What a send needs from the moment it started, in the sender's task: its event system, its
/// correlation identifier, and the tracer bound to the context it captured there.
///
/// **The seam for posted (queued) delivery.** Task-locals do not follow an event into a queue,
/// and the sender's system is read once. Posting captures at post time, in the poster's task,
/// and hands the capture to ``Router`` at delivery time; an awaited send captures when it
/// starts, in ``Router/send(_:from:source:options:signal:trace:)``.
///
/// **The one decision to trace.** The capture is where the tracer's gate
/// (``Tracer/shouldTrace(_:from:)``) is asked, once per send, before anything is reported: a
/// declined send holds no trace, so every later step (its `sent`, its hops, its ending) takes the
/// untraced path, and an accepted one holds its trace until `finished`.
@usableFromInline
struct TraceCapture: Sendable {
    /// The event system the send goes through.
    let system: EventSystem
    /// The send's correlation identifier, fixed at capture time.
    let eventID: EventID
    /// The tracer, bound to what it captured; `nil` when no tracer is installed or it declined
    /// the send.
    let trace: (any ActiveTrace)?
    /// When a posted event was captured (taken only when traced), to
    /// report its time in the queue.
    let postedAt: EventSystem.Instant?

    /// A capture for an awaited send of `event` from `source` through `system` with `options`: a
    /// new identifier and, when a tracer (the options', or the system's) accepts the send, the
    /// tracer bound to its context from this task.
    init(_ event: any Event, from source: EventSource, system: EventSystem, options: SendOptions) {
        self.system = system
        self.eventID = EventID.next()
        self.trace = Self.bind(event, from: source, system: system, options: options)
        self.postedAt = nil
    }

    init(system: EventSystem, eventID: EventID, trace: (any ActiveTrace)?, postedAt: EventSystem.Instant?) {
        self.system = system
        self.eventID = eventID
        self.trace = trace
        self.postedAt = postedAt
    }

    /// Captures, at post time and in the poster's task, the tracing of `event` posted from
    /// `source` through `system` with `options`: whether the tracer the send will use (the
    /// options', or the system's) accepts it and, if so, its context; a new correlation
    /// identifier; and the posting instant (read only when traced).
    static func posting(
        _ event: any Event, from source: EventSource, through system: EventSystem, options: SendOptions,
        eventID: EventID = .next(), stored: [String: String]? = nil
    ) -> TraceCapture {
        let trace = bind(event, from: source, system: system, options: options, stored: stored)
        return TraceCapture(
            system: system,
            eventID: eventID,
            trace: trace,
            postedAt: trace == nil ? nil : system.timers.now
        )
    }

    /// The tracer the send uses (the options', else the system's), bound to it if it accepts.
    private static func bind(
        _ event: any Event, from source: EventSource, system: EventSystem, options: SendOptions,
        stored: [String: String]? = nil
    ) -> (any ActiveTrace)? {
        if let binding = options.tracerBinding {
            return binding.binder.bind(event, from: source, stored: stored)
        }
        return system.traceBinder?.bind(event, from: source, stored: stored)
    }

    /// How long a posted event waited between its capture and now; `nil` for an awaited send.
    func queuedDuration() -> Duration? {
        postedAt.map { system.timers.now - $0 }
    }

    /// Reports ``TraceEvent/sent(_:)`` for the send, from `source`, if it is traced.
    func recordSent(from source: EventSource) {
        guard let trace else { return }
        trace.record(
            .sent(
                TraceEvent.Sent(
                    eventID: eventID, eventName: trace.eventName, source: source,
                    queued: queuedDuration())))
    }
}

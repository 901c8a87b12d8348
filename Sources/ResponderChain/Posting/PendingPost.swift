/// A posted event waiting in its sender's queue: everything its delivery needs, captured at post
/// time in the poster's task.
struct PendingPost: Sendable {
    /// The event.
    let event: any Event
    /// Where delivery starts: the sender (or a relay's entry responder).
    let entry: any Responder
    /// Who posted it.
    let source: EventSource
    /// The poster's options (deadline, start, tracer and dead-letter overrides).
    let options: SendOptions
    /// The correlation identifier and tracing captured at post time.
    let capture: TraceCapture
    /// The ticket's state: its cancellation flag and, later, its outcome.
    let ticket: TicketState
    /// The isolation of the poster: the queue's delivery task runs there, so that hops to
    /// responders on the poster's executor cost no thread switch.
    let isolation: (any Actor)?
}

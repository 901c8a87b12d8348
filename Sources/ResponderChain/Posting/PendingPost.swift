/// A posted event waiting in its sender's queue: everything its delivery needs, captured at post
/// time in the poster's task.
///
/// A queue may hold a hundred thousand of these, so a plain post (default options, no tracing,
/// posted by the responder it starts from) keeps only what it must: the event, where delivery
/// starts, the ticket, the poster's isolation and the system. The rest, when a post has it, is
/// kept in one ``Extras`` object.
struct PendingPost: Sendable {
    /// What a post that is not plain carries besides: its source, options and tracing.
    final class Extras: Sendable {
        let source: EventSource
        let options: SendOptions
        let capture: TraceCapture

        init(source: EventSource, options: SendOptions, capture: TraceCapture) {
            self.source = source
            self.options = options
            self.capture = capture
        }
    }

    /// The event.
    let event: any Event
    /// Where delivery starts: the sender (or a relay's entry responder).
    let entry: any Responder
    /// The ticket's state: its identifier, its cancellation flag and, later, its outcome.
    let ticket: TicketState
    /// The isolation of the poster: the queue's delivery task runs there, so that hops to
    /// responders on the poster's executor cost no thread switch.
    let isolation: (any Actor)?
    /// The system the post was made in.
    private let system: EventSystem
    /// The source, options and tracing of a post that is not plain; `nil` for a plain one.
    private let extras: Extras?

    init(
        event: any Event, entry: any Responder, source: EventSource, options: SendOptions,
        capture: TraceCapture, ticket: TicketState, isolation: (any Actor)?
    ) {
        self.event = event
        self.entry = entry
        self.ticket = ticket
        self.isolation = isolation
        self.system = capture.system
        let isPlain =
            source.responder.map { $0 === entry } == true && options.isDefault && capture.trace == nil
            && capture.postedAt == nil && capture.eventID == ticket.eventID
        extras = isPlain ? nil : Extras(source: source, options: options, capture: capture)
    }

    /// Who posted it.
    var source: EventSource { extras?.source ?? .responder(entry) }
    /// The poster's options (deadline, start, tracer and dead-letter overrides).
    var options: SendOptions { extras?.options ?? .default }
    /// The correlation identifier and tracing captured at post time.
    var capture: TraceCapture {
        extras?.capture ?? TraceCapture(system: system, eventID: ticket.eventID, trace: nil, postedAt: nil)
    }
}

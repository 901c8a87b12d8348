/// A posted event waiting in its sender's queue: everything its delivery needs, captured at post
/// time in the poster's task.
///
/// A queue may hold a hundred thousand of these, inline in its buffer, so a plain post (default
/// options, no tracing, posted by the responder it starts from) keeps only what it must: the
/// event, where delivery starts, the ticket and its depth, packed in the word that otherwise
/// points to the rest (72 bytes in all). The system is its office's, named by whoever hands the
/// post on; the poster's isolation matters only to the post that starts its lane's task, and
/// travels beside it. The rest, when a post has it, is kept in one ``Extras`` object.
struct PendingPost: Sendable {
    /// What a post that is not plain carries besides: its source, options and tracing, and the
    /// depth of the route it was made in.
    final class Extras: Sendable {
        let source: EventSource
        let options: SendOptions
        let trace: (any ActiveTrace)?
        let postedAt: EventSystem.Instant?
        let depth: Int
        /// A stored post's earlier failures and the time of its next attempt, read back.
        let retrying: PostRetrying?

        init(
            source: EventSource, options: SendOptions, capture: TraceCapture, depth: Int,
            retrying: PostRetrying? = nil
        ) {
            self.source = source
            self.options = options
            self.trace = capture.trace
            self.postedAt = capture.postedAt
            self.depth = depth
            self.retrying = retrying
        }
    }

    /// The event.
    let event: any Event
    /// Where delivery starts: the sender (or a relay's entry responder).
    let entry: any Responder
    /// The ticket's state: its identifier, its cancellation flag and, later, its outcome.
    let ticket: TicketState
    /// A plain post's depth, or the rest of a post that is not plain: one word either way.
    private enum Rest {
        case plain(depth: UInt32)
        case extras(Extras)
    }

    private let rest: Rest

    /// A post of `event` at `entry`, captured in `capture` (whose identifier is the ticket's),
    /// whose delivery's route starts at `depth` (``Lineage/depthOfNewRoute``; 0 outside any
    /// route).
    init(
        event: any Event, entry: any Responder, source: EventSource, options: SendOptions,
        capture: TraceCapture, ticket: TicketState, depth: Int = 0, retrying: PostRetrying? = nil
    ) {
        self.event = event
        self.entry = entry
        self.ticket = ticket
        let isPlain =
            source.responder.map { $0 === entry } == true && options.isDefault && capture.trace == nil
            && capture.postedAt == nil && retrying == nil
        if isPlain, let plainDepth = UInt32(exactly: depth) {
            rest = .plain(depth: plainDepth)
        } else {
            rest = .extras(
                Extras(source: source, options: options, capture: capture, depth: depth, retrying: retrying))
        }
    }

    private var extras: Extras? {
        guard case .extras(let extras) = rest else { return nil }
        return extras
    }

    /// Who posted it.
    var source: EventSource { extras?.source ?? .responder(entry) }
    /// A stored post's earlier failures and the time of its next attempt, as its store read
    /// them back; `nil` for one never tried.
    var storedRetrying: PostRetrying? { extras?.retrying }
    /// The poster's options (deadline, start, tracer and dead-letter overrides).
    var options: SendOptions { extras?.options ?? .default }
    /// The depth its delivery's route starts at: that of a send made where it was posted.
    var depth: Int {
        switch rest {
        case .plain(let depth): Int(depth)
        case .extras(let extras): extras.depth
        }
    }

    /// The correlation identifier and tracing captured at post time, for delivery through
    /// `system` (the post office's).
    func capture(in system: EventSystem) -> TraceCapture {
        TraceCapture(
            system: system, eventID: ticket.eventID, trace: extras?.trace, postedAt: extras?.postedAt)
    }
}

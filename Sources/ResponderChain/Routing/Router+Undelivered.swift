/// Outcomes of posted events that never reach a responder: rejected when posted, or cancelled
/// while still queued. They are reported like any other send: to the ticket, the tracer (`sent`,
/// then `finished`) and, for rejections, the dead-letter sink.
extension Router {
    /// Ends `post` as ``Outcome/rejected(_:)``.
    static nonisolated(nonsending) func reject(
        _ post: PendingPost,
        reason: Outcome.Rejection.Reason,
        router: EventRouter
    ) async {
        let outcome = Outcome.rejected(
            Outcome.Rejection(path: emptyPath(of: post), sender: ResponderID(post.entry), reason: reason))
        recordSent(post)
        if let sink = post.options.deadLetters ?? router.deadLetters {
            await sink.deliver(DeadLetter(event: post.event, source: post.source, outcome: outcome))
            post.capture.trace?.record(.deadLettered(outcome))
        }
        finish(post, with: outcome)
    }

    /// Ends `post`, removed from its queue by its ticket, as ``Outcome/cancelled(_:)`` before
    /// hop 1.
    static func cancelQueued(_ post: PendingPost) {
        let stop = Outcome.Stop(
            path: emptyPath(of: post), responder: ResponderID(post.entry), hop: 1, whileHandling: false)
        recordSent(post)
        finish(post, with: .cancelled(stop))
    }

    private static func emptyPath(of post: PendingPost) -> Outcome.Path {
        Outcome.Path(eventID: post.capture.eventID, hops: 0, handlers: [], info: EventInfo())
    }

    private static func recordSent(_ post: PendingPost) {
        post.capture.trace?.record(
            .sent(
                TraceEvent.Sent(
                    eventID: post.capture.eventID, eventName: post.event.traceName, source: post.source,
                    queued: post.capture.queuedDuration())))
    }

    private static func finish(_ post: PendingPost, with outcome: Outcome) {
        post.capture.trace?.record(.finished(outcome))
        post.ticket.finish(outcome)
    }
}

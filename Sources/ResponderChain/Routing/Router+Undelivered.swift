/// Outcomes of posted events that never reach a responder: rejected when posted, or ended while
/// still queued (their ticket cancelled, or their system shut down). They are reported like any
/// other send: to the ticket, the tracer (`sent`, then `finished`) and, where the outcome goes
/// there, the dead-letter sink.
extension Router {
    /// Ends `post` as ``Outcome/rejected(_:)``.
    static nonisolated(nonsending) func reject(
        _ post: PendingPost,
        reason: Outcome.Rejection.Reason,
        system: EventSystem
    ) async {
        let outcome = Outcome.rejected(
            Outcome.Rejection(path: emptyPath(of: post), sender: ResponderID(post.entry), reason: reason))
        await endUndelivered(post, with: outcome, system: system)
    }

    /// Ends `post`, removed from its queue by its ticket, as ``Outcome/cancelled(_:)`` before
    /// hop 1, at once: a cancelled event does not go to the dead-letter sink, so nothing here
    /// needs to wait.
    static func endQueuedByTicket(_ post: PendingPost) {
        let outcome = Outcome.cancelled(queuedStop(of: post, reason: .ticketCancelled))
        recordSent(post)
        post.ticket.finish(end(outcome, trace: post.capture.trace))
    }

    /// Ends `post`, removed from its queue by its system's shutdown, as ``Outcome/cancelled(_:)``
    /// before hop 1, with reason ``Outcome/Stop/Reason/shutdown``; it is dead-lettered.
    static nonisolated(nonsending) func endQueuedByShutdown(_ post: PendingPost, system: EventSystem) async {
        let outcome = Outcome.cancelled(queuedStop(of: post, reason: .shutdown))
        await endUndelivered(post, with: outcome, system: system)
    }

    private static func queuedStop(of post: PendingPost, reason: Outcome.Stop.Reason) -> Outcome.Stop {
        Outcome.Stop(
            path: emptyPath(of: post), responder: ResponderID(post.entry), hop: 1, whileHandling: false,
            reason: reason)
    }

    private static nonisolated(nonsending) func endUndelivered(
        _ post: PendingPost,
        with outcome: Outcome,
        system: EventSystem
    ) async {
        recordSent(post)
        let outcome = await end(
            outcome, of: post.event, source: post.source,
            deadLetters: post.options.deadLetters ?? system.deadLetters, trace: post.capture.trace)
        post.ticket.finish(outcome)
    }

    private static func recordSent(_ post: PendingPost) {
        post.capture.recordSent(from: post.source)
    }

    private static func emptyPath(of post: PendingPost) -> Outcome.Path {
        Outcome.Path(eventID: post.capture.eventID, hops: 0, info: EventInfo())
    }
}

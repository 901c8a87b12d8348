/// The undelivered endings of posts: rejected when posted, or taken out of their queue before
/// delivery (cancelled by their ticket, ended by their system's shutdown, refused because they
/// would wait for themselves). They are reported like any other send, through the one ending of
/// a send (``Router/end(_:of:source:system:deadLetters:trace:)``): to the tracer (`sent`, then
/// `finished`), to the dead-letter sink where the outcome goes there, and to the post's ticket.
extension PostOffice {
    /// Ends `post` as ``Outcome/rejected(_:)`` and wakes its ticket's waiters.
    static nonisolated(nonsending) func reject(
        _ post: PendingPost,
        reason: Outcome.Rejection.Reason,
        system: EventSystem
    ) async {
        let outcome = Outcome.rejected(
            Outcome.Rejection(path: emptyPath(of: post), sender: ResponderID(post.entry), reason: reason))
        post.ticket.finish(await endUndelivered(post, with: outcome, system: system))
    }

    /// Ends `post`, removed from its queue by its ticket, as ``Outcome/cancelled(_:)`` before
    /// hop 1, at once: a post its own ticket cancelled does not go to the dead-letter sink, so
    /// nothing here needs to wait. Returns the outcome; the caller settles the ticket.
    static func endQueuedByTicket(_ post: PendingPost, system: EventSystem) -> Outcome {
        let outcome = Outcome.cancelled(queuedStop(of: post, reason: .ticketCancelled))
        return Router.endUndelivered(
            outcome, of: post.event, source: post.source, capture: post.capture(in: system))
    }

    /// Ends `post`, taken from its queue when its system's shutdown began, as
    /// ``Outcome/cancelled(_:)`` before hop 1, with reason
    /// ``Outcome/Stop/Reason/keptForNextStart``: its store keeps it for the next start, so it
    /// does not go to the dead-letter sink. Returns the outcome; the caller settles the ticket.
    static func endQueuedKept(_ post: PendingPost, system: EventSystem) -> Outcome {
        let outcome = Outcome.cancelled(queuedStop(of: post, reason: .keptForNextStart))
        return Router.endUndelivered(
            outcome, of: post.event, source: post.source, capture: post.capture(in: system))
    }

    /// Ends `post`, removed from its queue by its abandoned ticket (``Ticket/abandon()``), as
    /// ``Outcome/cancelled(_:)`` before hop 1, with reason
    /// ``Outcome/Stop/Reason/ticketCancelled``; it is dead-lettered. Returns the
    /// outcome; the caller settles the ticket and wakes its waiters.
    static nonisolated(nonsending) func endQueuedAbandoned(_ post: PendingPost, system: EventSystem) async
        -> Outcome
    {
        let outcome = Outcome.cancelled(queuedStop(of: post, reason: .ticketCancelled))
        return await endUndelivered(post, with: outcome, system: system)
    }

    /// Ends `post`, removed from its queue by its system's shutdown, as ``Outcome/cancelled(_:)``
    /// before hop 1, with reason ``Outcome/Stop/Reason/shutdown``; it is dead-lettered.
    /// Returns the outcome; the caller settles the ticket and wakes its waiters.
    static nonisolated(nonsending) func endQueuedByShutdown(_ post: PendingPost, system: EventSystem)
        async -> Outcome
    {
        let outcome = Outcome.cancelled(queuedStop(of: post, reason: .shutdown))
        return await endUndelivered(post, with: outcome, system: system)
    }

    /// Ends `post`, removed from its queue, as ``Outcome/rejected(_:)`` for `reason`, named at
    /// the responder it would have started at; it is dead-lettered through its own system.
    /// Returns the outcome; the caller settles the ticket and wakes its waiters.
    static nonisolated(nonsending) func endQueued(
        _ post: PendingPost, rejectedFor reason: Outcome.Rejection.Reason, system: EventSystem
    ) async -> Outcome {
        let outcome = Outcome.rejected(
            Outcome.Rejection(path: emptyPath(of: post), sender: ResponderID(post.entry), reason: reason))
        return await endUndelivered(post, with: outcome, system: system)
    }

    private static func queuedStop(of post: PendingPost, reason: Outcome.Stop.Reason) -> Outcome.Stop {
        Outcome.Stop(
            path: emptyPath(of: post), responder: ResponderID(post.entry), hop: 1, whileHandling: false,
            reason: reason)
    }

    /// Ends `post` with `outcome`: its tracer and dead letters; returns the outcome for its ticket.
    private static nonisolated(nonsending) func endUndelivered(
        _ post: PendingPost,
        with outcome: Outcome,
        system: EventSystem
    ) async -> Outcome {
        let outcome = await Router.endUndelivered(
            outcome, of: post.event, source: post.source, capture: post.capture(in: system),
            deadLetters: post.options.deadLetters ?? system.deadLetters, signal: post.ticket.signal)
        return outcome
    }

    private static func emptyPath(of post: PendingPost) -> Outcome.Path {
        Outcome.Path(eventID: post.ticket.eventID, hops: 0, info: EventInfo())
    }
}

/// The ending of a send that reached no responder: a post ended before its delivery, or a
/// relay's send after its entry is gone.
extension Router {
    /// The ending of a send that reached no responder: its `sent`, then the one ending
    /// (``end(_:of:source:system:deadLetters:trace:)``), through the capture's system.
    /// `signal` is a post's ticket (see ``Outcome/goesToDeadLetters(signal:)``).
    static nonisolated(nonsending) func endUndelivered(
        _ outcome: Outcome,
        of event: any Event,
        source: EventSource,
        capture: TraceCapture,
        deadLetters: DeadLetter.Sink?,
        signal: CancellationSignal? = nil
    ) async -> Outcome {
        guard outcome.goesToDeadLetters(signal: signal) else {
            return endUndelivered(outcome, of: event, source: source, capture: capture)
        }
        capture.recordSent(from: source)
        return await end(
            outcome, of: event, source: source, system: capture.system, deadLetters: deadLetters,
            trace: capture.trace, deadLettered: true)
    }

    /// ``endUndelivered(_:of:source:capture:deadLetters:)`` for an outcome that does not go to
    /// the dead-letter sink: nothing to wait for.
    static func endUndelivered(
        _ outcome: Outcome,
        of event: any Event,
        source: EventSource,
        capture: TraceCapture
    ) -> Outcome {
        capture.recordSent(from: source)
        return publish(outcome, of: event, source: source, system: capture.system, trace: capture.trace)
    }
}

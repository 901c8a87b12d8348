extension Responder {
    /// Posts `event` up the chain from this responder without waiting for it, and returns its
    /// ticket.
    ///
    /// The events one sender posts are delivered one after the other, in post order, by a task
    /// that runs on the poster's isolation: every responder sees them in that order, even when
    /// handlers suspend. Posts of different senders are not ordered against each other. Each
    /// post ends in exactly one outcome, which the ticket gives, and which reaches the tracer; a
    /// post that ends other than handled also reaches the dead-letter sink and streams (failed
    /// and timed out too: nobody need await a post), unless its own ticket's ``Ticket/cancel()``
    /// ended it. (A handler at the end of the chain may let
    /// the next post begin before its event has ended: ``EventContext/releaseSenderLane()``.)
    ///
    /// Cancelling the posting task does not cancel an accepted post: cancel its ``Ticket``. A
    /// timeout in `options` counts from this call, time in the queue included.
    /// When the system's ``EventSystem/PostingLimit`` is reached, this waits for room or returns a rejected
    /// ticket, as the limit's policy says; once the system is shutting down
    /// (``EventSystem/shutDown(gracePeriod:)``), the ticket is rejected at once.
    ///
    /// The delivery runs in a task of its own that inherits none of the poster's task-local
    /// values (the tracer's context is captured here, at post time): a handler's state, such as
    /// a one-at-a-time responder it holds, never follows its posts. Only its depth does: a post
    /// made inside a handler's send still under way is nested in it as a send made there, and
    /// counts toward the system's ``EventSystem/forwardingLimit``.
    ///
    /// ```swift
    /// for sku in skus {
    ///     await lineItem.post(ItemAdded(sku: sku))       // delivered in this order
    /// }
    /// let last = await lineItem.post(Checkout())
    /// print(await last.outcome)
    /// ```
    ///
    /// - Parameters:
    ///   - event: The event.
    ///   - key: The ordering key (see ``EventSystem/OrderingKey``): posts with the same key are
    ///     delivered one at a time in post order, posts with different keys concurrently.
    ///     `nil` (the default) orders the post with the other posts of this sender.
    ///   - idempotencyKey: Makes a retried post not a second one: while an earlier post with
    ///     the same idempotency key is held (outstanding, or, with a store, finished within the
    ///     store's retention), this returns that post's ticket if it is outstanding here, or a
    ///     ticket ended ``Outcome/rejected(_:)`` with reason
    ///     ``Outcome/Rejection/Reason/duplicate(of:outcome:)``.
    ///   - options: The send options (deadline, tracer, dead-letter overrides).
    @discardableResult
    public nonisolated(nonsending) func post(
        _ event: some Event, key: EventSystem.OrderingKey? = nil, idempotencyKey: String? = nil,
        options: SendOptions = .default
    ) async -> Ticket {
        await PostOffice.post(
            event, entry: self, source: .responder(self), lane: .sender(ObjectIdentifier(self)), key: key,
            idempotencyKey: idempotencyKey, options: options, isolation: #isolation)
    }

    /// Posts a ``NamedEvent`` called `name` with `payload` up the chain from this responder.
    @discardableResult
    public nonisolated(nonsending) func post(
        _ name: NamedEvent.Name,
        payload: some Sendable = (),
        options: SendOptions = .default
    ) async -> Ticket {
        await post(NamedEvent(name, payload: payload), options: options)
    }
}

extension PostOffice {
    /// Builds the pending post (capturing tracing in the poster's task), queues it on `lane` of
    /// `entry`'s event system (or `key`'s lane), and returns its ticket. A post to a system with
    /// a store, or with an idempotency key, goes through ``post(_:isolation:system:)``.
    static nonisolated(nonsending) func post(
        _ event: any Event,
        entry: any Responder,
        source: EventSource,
        lane: LaneKey,
        key: EventSystem.OrderingKey? = nil,
        idempotencyKey: String? = nil,
        options: SendOptions,
        isolation: (any Actor)?
    ) async -> Ticket {
        let system = await entry.eventSystem
        // A timeout counts from the post: time in the queue included.
        let options = options.started(on: system.timers)
        let capture = TraceCapture.posting(event, from: source, through: system, options: options)
        guard system.postOffice.writer == nil, idempotencyKey == nil else {
            let post = KeptPost(
                event: event, entry: entry, source: source, lane: lane, key: key,
                idempotencyKey: idempotencyKey,
                options: options, capture: capture)
            return await system.postOffice.post(post, isolation: isolation, system: system)
        }
        let lane = key.map { LaneKey.key($0.name) } ?? lane
        let ticket = TicketState(eventID: capture.eventID, system: system, lane: lane)
        // Made inside a route, its delivery's route is nested as deep as a send made here.
        let post = PendingPost(
            event: event, entry: entry, source: source, options: options, capture: capture,
            ticket: ticket, depth: Lineage.depthOfNewRoute)
        await system.postOffice.accept(post, lane: lane, isolation: isolation, system: system)
        return Ticket(state: ticket)
    }
}

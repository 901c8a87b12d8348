extension EventContext {
    /// For a posted event being delivered by its sender's lane: lets the sender's next post begin
    /// now, while this event goes on to its outcome.
    ///
    /// A sender's posts are delivered one after the other: the next one starts only once this one
    /// has its outcome. A handler that has fixed this event's order from here on (say, a link
    /// that has queued it on an ordered stream to another process and now waits for the answer)
    /// calls this to let the sender's later posts go on meanwhile. The event keeps running in its
    /// current task to its outcome, which its ``Ticket`` gets as always; it still counts against
    /// the ``EventSystem/PostingLimit`` and for the shutdown's drain until then, and
    /// ``Ticket/cancel()`` and the end of a shutdown's grace period still stop it.
    ///
    /// After the release, the responders above this one may see the sender's next posts *before*
    /// this event, if it ever reaches them: post order holds only up to the responder that
    /// released. Call it at the end of a chain, from a responder whose own transport keeps the
    /// order:
    ///
    /// ```swift
    /// $0.on(Order.self) { link, order, context in
    ///     let reply = await link.stream.enqueue(order)   // in order, on one ordered stream
    ///     context.releaseSenderLane()                    // the sender's next post may start
    ///     return try await reply.disposition             // this post's outcome, later
    /// }
    /// ```
    ///
    /// - Returns: `true` if the lane was released by this call; `false` for an awaited send, for
    ///   a post whose lane was already released, or outside a lane's delivery (a nested send
    ///   made by a posted event's handler has a context of its own, and cannot release its
    ///   parent's lane).
    @discardableResult
    public func releaseSenderLane() -> Bool {
        guard let signal else { return false }
        return PostOffice.releaseLane(of: signal)
    }

    /// Whether ``releaseSenderLane()`` would release the lane now: the event is a post its
    /// sender's lane is delivering, in this context (not a nested send), and nobody released the
    /// lane yet.
    ///
    /// A responder that can carry posts in order (a link with an ordered stream) asks this to
    /// choose that way for posts, and its plain way for awaited sends.
    public var canReleaseSenderLane: Bool {
        guard let signal else { return false }
        return PostOffice.canReleaseLane(of: signal)
    }
}

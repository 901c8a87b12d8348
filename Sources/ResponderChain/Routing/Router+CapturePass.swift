/// The capture pass (see ``EventContext/Phase``): before the bubble, the chain above the first responder
/// is read once, link by link, and the responders on it that capture (``Responder/capturesEvents``)
/// are visited from the topmost down.
///
/// ```
///  read links: first ─next─▶ A ─next─▶ B ─next─▶ root      (no handler runs; a repeat: cycle)
///  visit:      root? ─▶ B? ─▶ A? ─▶ first?                 (only those that capture; a stop,
///                                                           .handled or a throw ends the send)
///  then the bubble from `first`, reading the links again, live
/// ```
///
/// The links are read as the send starts and are not read again during the pass: a re-link made
/// while capture handlers run takes effect in the bubble, which reads every link afresh.
extension Router {
    /// Runs the capture pass of a send whose bubble starts at `first`. Returns the outcome if
    /// the send ended in it (intercepted, stopped, failed, a cycle among the links), or `nil` to
    /// go on to the bubble. `sender` is the sender of a send that starts at its `next`: it is on
    /// the chain, but not on the path (a link back to it is a cycle, as in the bubble).
    ///
    /// Hops of the pass are numbered from 1, before the bubble's, with ``EventContext/phase``
    /// set to ``EventContext/Phase/capture``; capture handlers that handle the event and let it go on are
    /// listed first in the outcome's handlers.
    static nonisolated(nonsending) func capture(
        _ event: any Event,
        from first: any Responder,
        after sender: (any Responder)?,
        lineage: Lineage,
        context: inout EventContext,
        handlers: inout HandlerList,
        lastRan: inout (any Responder)?
    ) async -> Outcome? {
        func path() -> Outcome.Path { Outcome.Path(context, handlers: handlers) }

        // The path, read once: every responder from `first` up to the end of the chain.
        var capturing: [any Responder] = []
        var visited = VisitedResponders()
        if let sender { _ = visited.insert(sender) }
        var previous: (any Responder)?
        var current = first
        while true {
            guard visited.insert(current) else {
                return .cycleDetected(
                    Outcome.Cycle(
                        path: path(), repeated: ResponderID(current), closedBy: ResponderID(previous ?? first)
                    ))
            }
            if await current.capturesEvents { capturing.append(current) }
            let next = await current.next
            if let stop = context.stopReason {
                return stopped(stop, at: first, hop: 1, whileHandling: false, path: path(), phase: .capture)
            }
            guard let next else { break }
            previous = current
            current = next
        }
        guard !capturing.isEmpty else { return nil }

        // The capture hops, topmost first.
        context.phase = .capture
        defer { context.phase = .bubble }
        for responder in capturing.reversed() {
            // A stop seen at the end of the hop above ends the send before this one.
            if let stop = context.stopReason {
                return stopped(
                    stop, at: responder, hop: context.hop + 1, whileHandling: false, after: lastRan,
                    path: path(), phase: .capture)
            }
            if lineage.loopsBack(at: responder) {
                return .cycleDetected(
                    Outcome.Cycle(
                        path: path(), repeated: ResponderID(responder),
                        closedBy: ResponderID(lastRan ?? first), isForwardingLoop: true))
            }
            lineage.enter(responder)
            context.hop += 1
            context.captureHops = context.hop
            _ = await responder._visit(event, context: &context)
            if let outcome = conclude(
                at: responder, after: lastRan, stop: context.stopReason, phase: .capture,
                context: &context, handlers: &handlers)
            {
                return outcome
            }
            lastRan = responder
        }
        // A stop seen at the end of the last capture hop ends the send before the bubble's
        // first hop.
        if let stop = context.stopReason {
            return stopped(
                stop, at: first, hop: context.hop + 1, whileHandling: false, after: lastRan, path: path(),
                phase: .bubble)
        }
        return nil
    }
}

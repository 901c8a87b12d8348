extension Outcome {
    /// This outcome, another chain's for an event a hop forwarded, as the end of the send whose
    /// path so far is `prefix`: one outcome for the whole path, merged as
    /// ``Disposition/forwarded(_:)`` documents.
    func continuing(from prefix: Path) -> Outcome {
        var handlers = prefix.handlerList
        for handler in path.handlers { handlers.append(handler) }
        let merged = Path(
            eventID: prefix.eventID, hops: prefix.hops + path.hops, captureHops: prefix.captureHops,
            handlers: handlers, info: prefix.info.overlaid(with: path.info))
        switch self {
        case .handled(let handled):
            return .handled(Handled(path: merged, stoppedAt: handled.stoppedAt, phase: handled.phase))
        case .unhandled(let unhandled):
            return .unhandled(Unhandled(path: merged, root: unhandled.root))
        case .interrupted(let broken):
            return .interrupted(
                Interruption(path: merged, lastReached: broken.lastReached, cause: broken.cause))
        case .cycleDetected(let cycle):
            return .cycleDetected(
                Cycle(
                    path: merged, repeated: cycle.repeated, closedBy: cycle.closedBy,
                    isForwardingLoop: cycle.isForwardingLoop))
        case .cancelled(let stop):
            return .cancelled(stop.continuing(on: merged, after: prefix.hops))
        case .timedOut(let stop):
            return .timedOut(stop.continuing(on: merged, after: prefix.hops))
        case .failed(let failure):
            return .failed(
                Failure(
                    path: merged, error: failure.error, responder: failure.responder,
                    hop: prefix.hops + failure.hop, phase: failure.phase))
        case .rejected(let rejection):
            return .rejected(Rejection(path: merged, sender: rejection.sender, reason: rejection.reason))
        }
    }
}

extension Outcome.Stop {
    /// This stop, on the merged `path`, its hop counted after `hops` earlier ones.
    fileprivate func continuing(on path: Outcome.Path, after hops: Int) -> Outcome.Stop {
        Outcome.Stop(
            path: path, responder: responder, hop: hops + hop, whileHandling: whileHandling, reason: reason,
            phase: phase, lastReached: lastReached)
    }
}

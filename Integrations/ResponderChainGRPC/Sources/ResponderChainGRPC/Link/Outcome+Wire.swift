public import ResponderChain

extension Outcome {
    /// The outcome `wire` describes, for the send `eventID` of this process: its responders
    /// given identities here by `responders`, its information read by `registry`. Information
    /// the other side could not send back is listed under ``InfoLeftRemote``.
    init(
        _ wire: WireOutcome, eventID: EventID, registry: RemoteRegistry, responders: RemoteResponderDirectory
    ) throws(RemoteLinkError) {
        var info = EventInfo()
        do {
            try registry.read(wire.info, into: &info)
        } catch {
            throw .unreadableReply("\(error)")
        }
        if !wire.infoLeftBehind.isEmpty { info[InfoLeftRemote.self] = wire.infoLeftBehind }
        guard (0...wire.hops).contains(wire.captureHops),
            (0...wire.handlers.count).contains(wire.captureHandlerCount)
        else { throw .unreadableReply("inconsistent counts") }
        let path = Outcome.Path(
            eventID: eventID, hops: wire.hops, captureHops: wire.captureHops,
            handlers: wire.handlers.map(responders.id(of:)), captureHandlerCount: wire.captureHandlerCount,
            info: info)
        let responder = responders.id(of: wire.responder)
        let phase = EventContext.Phase(wireName: wire.phase)
        func stop() throws(RemoteLinkError) -> Outcome.Stop {
            guard let hop = wire.hop, let whileHandling = wire.whileHandling,
                let reason = wire.stopReason.flatMap(Outcome.Stop.Reason.init(wireName:))
            else { throw .unreadableReply("a stop without its hop or reason") }
            return Outcome.Stop(
                path: path, responder: responder, hop: hop, whileHandling: whileHandling, reason: reason,
                phase: phase, lastReached: wire.lastReached.map(responders.id(of:)))
        }
        switch Outcome.Kind(rawValue: wire.kind) {
        case .handled:
            self = .handled(Outcome.Handled(path: path, stoppedAt: responder, phase: phase))
        case .unhandled:
            self = .unhandled(Outcome.Unhandled(path: path, root: responder))
        case .interrupted:
            self = .interrupted(Outcome.Interruption(path: path, lastReached: responder))
        case .cycleDetected:
            guard let closedBy = wire.closedBy else { throw .unreadableReply("a cycle without closedBy") }
            self = .cycleDetected(
                Outcome.Cycle(
                    path: path, repeated: responder, closedBy: responders.id(of: closedBy),
                    isForwardingLoop: wire.isForwardingLoop ?? false))
        case .cancelled:
            self = .cancelled(try stop())
        case .timedOut:
            self = .timedOut(try stop())
        case .failed:
            guard let hop = wire.hop, let error = wire.error else {
                throw .unreadableReply("a failure without its hop or error")
            }
            self = .failed(
                Outcome.Failure(path: path, error: error, responder: responder, hop: hop, phase: phase))
        case .rejected:
            guard
                let reason = wire.rejection.flatMap({
                    Outcome.Rejection.Reason(wireName: $0, limit: wire.limit)
                })
            else { throw .unreadableReply("a rejection without its reason") }
            self = .rejected(Outcome.Rejection(path: path, sender: responder, reason: reason))
        case nil:
            throw .unreadableReply("unknown outcome kind \"\(wire.kind)\"")
        }
    }
}

/// The names of information the other process had at the end of an event's way there but could
/// not send back (its keys are not registered there): set in a forwarded send's outcome, so that
/// nothing is dropped unseen.
public enum InfoLeftRemote: InfoKey {
    /// The keys' ``InfoKey/name``s.
    public typealias Value = [String]
}

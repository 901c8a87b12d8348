public import ResponderChain

extension Outcome {
    /// The outcome `reply` tells of, for the send `eventID` of this process: the other chain's
    /// (``init(_:eventID:registry:responders:)``), or the error that stands for it.
    ///
    /// - Throws: ``RemoteLinkError/refused(_:)`` for a refusal, and
    ///   ``RemoteLinkError/unreadableReply(_:)`` naming the field for a reply of another
    ///   version or with a value that does not fit.
    init(
        _ reply: RemoteReply, eventID: EventID, registry: RemoteRegistry, responders: RemoteResponderDirectory
    ) throws(RemoteLinkError) {
        guard WireFormat.readVersions.contains(reply.version) else {
            throw .unreadableReply(
                "RemoteReply.version is \(reply.version), outside \(WireFormat.readVersions) (the versions read here)"
            )
        }
        switch reply.body {
        case .refused(let refusal):
            throw .refused(try refusal.checked())
        case .outcome(let wire):
            try self.init(wire, eventID: eventID, registry: registry, responders: responders)
        }
    }

    /// The outcome `wire` describes, for the send `eventID` of this process: its responders
    /// given identities here by `responders`, its information read by `registry`. Information
    /// the other side could not send back is listed under ``InfoLeftRemote``.
    ///
    /// Every value is checked before it becomes part of the outcome: a count, hop or limit
    /// out of its range (a hop count over ``WireOutcome/maxHops``, which this side's hops are
    /// added to), or a name of a kind, pass or reason this side does not know, throws
    /// ``RemoteLinkError/unreadableReply(_:)`` naming the field (`WireOutcome.hops is -1`).
    init(
        _ wire: WireOutcome, eventID: EventID, registry: RemoteRegistry, responders: RemoteResponderDirectory
    ) throws(RemoteLinkError) {
        guard wire.hops >= 0 else { throw .unreadableReply("WireOutcome.hops is \(wire.hops)") }
        guard wire.hops <= WireOutcome.maxHops else {
            throw .unreadableReply("WireOutcome.hops is \(wire.hops), over \(WireOutcome.maxHops)")
        }
        guard wire.captureHops >= 0, wire.captureHops <= wire.hops else {
            throw .unreadableReply(
                "WireOutcome.captureHops is \(wire.captureHops), outside 0...\(wire.hops) (hops)")
        }
        guard wire.captureHandlerCount >= 0, wire.captureHandlerCount <= wire.handlers.count else {
            throw .unreadableReply(
                "WireOutcome.captureHandlerCount is \(wire.captureHandlerCount), outside 0...\(wire.handlers.count) (handlers)"
            )
        }
        if let hop = wire.hop, hop < 0 { throw .unreadableReply("WireOutcome.hop is \(hop)") }
        if let hop = wire.hop, hop > WireOutcome.maxHops {
            throw .unreadableReply("WireOutcome.hop is \(hop), over \(WireOutcome.maxHops)")
        }
        if let limit = wire.limit, limit < 0 { throw .unreadableReply("WireOutcome.limit is \(limit)") }
        if let attempts = wire.attempts, !(1...Int(UInt32.max)).contains(attempts) {
            throw .unreadableReply("WireOutcome.attempts is \(attempts), outside 1...\(UInt32.max)")
        }
        guard let kind = Outcome.Kind(rawValue: wire.kind) else {
            throw .unreadableReply("WireOutcome.kind \"\(wire.kind)\" is not a kind of outcome")
        }
        guard let phase = EventContext.Phase(wireName: wire.phase) else {
            throw .unreadableReply("WireOutcome.phase \"\(wire.phase)\" is not a pass")
        }
        var info = EventInfo()
        do {
            try registry.read(wire.info, into: &info)
        } catch {
            throw .unreadableReply("WireOutcome.info: \(error)")
        }
        if !wire.infoLeftBehind.isEmpty { info[InfoLeftRemote.self] = wire.infoLeftBehind }
        let path = Outcome.Path(
            eventID: eventID, hops: wire.hops, captureHops: wire.captureHops,
            handlers: wire.handlers.map(responders.id(of:)), captureHandlerCount: wire.captureHandlerCount,
            info: info, attempts: wire.attempts ?? 1)
        let responder = responders.id(of: wire.responder)
        func stop() throws(RemoteLinkError) -> Outcome.Stop {
            guard let hop = wire.hop else { throw .unreadableReply("WireOutcome.hop is missing for a stop") }
            guard let whileHandling = wire.whileHandling else {
                throw .unreadableReply("WireOutcome.whileHandling is missing for a stop")
            }
            guard let name = wire.stopReason else {
                throw .unreadableReply("WireOutcome.stopReason is missing for a stop")
            }
            guard let reason = Outcome.Stop.Reason(wireName: name) else {
                throw .unreadableReply("WireOutcome.stopReason \"\(name)\" is not a reason")
            }
            return Outcome.Stop(
                path: path, responder: responder, hop: hop, whileHandling: whileHandling, reason: reason,
                phase: phase, lastReached: wire.lastReached.map(responders.id(of:)))
        }
        switch kind {
        case .handled:
            self = .handled(Outcome.Handled(path: path, stoppedAt: responder, phase: phase))
        case .unhandled:
            self = .unhandled(Outcome.Unhandled(path: path, root: responder))
        case .interrupted:
            self = .interrupted(Outcome.Interruption(path: path, lastReached: responder))
        case .cycleDetected:
            guard let closedBy = wire.closedBy else {
                throw .unreadableReply("WireOutcome.closedBy is missing for a cycle")
            }
            self = .cycleDetected(
                Outcome.Cycle(
                    path: path, repeated: responder, closedBy: responders.id(of: closedBy),
                    isForwardingLoop: wire.isForwardingLoop ?? false))
        case .cancelled:
            self = .cancelled(try stop())
        case .timedOut:
            self = .timedOut(try stop())
        case .failed:
            guard let hop = wire.hop else {
                throw .unreadableReply("WireOutcome.hop is missing for a failure")
            }
            guard let error = wire.error else {
                throw .unreadableReply("WireOutcome.error is missing for a failure")
            }
            self = .failed(
                Outcome.Failure(path: path, error: error, responder: responder, hop: hop, phase: phase))
        case .rejected:
            guard let name = wire.rejection else {
                throw .unreadableReply("WireOutcome.rejection is missing for a rejection")
            }
            guard let reason = Outcome.Rejection.Reason(wireName: name, limit: wire.limit) else {
                throw .unreadableReply(
                    Outcome.Rejection.Reason.needsLimit(wireName: name)
                        ? "WireOutcome.limit is missing for the rejection \"\(name)\""
                        : "WireOutcome.rejection \"\(name)\" is not a reason")
            }
            self = .rejected(Outcome.Rejection(path: path, sender: responder, reason: reason))
        }
    }
}

extension RemoteRefusal {
    /// The refusal, once its numbers are checked: sizes are never negative, a wire format
    /// version is a `uint32`, and a schema version one from 1.
    ///
    /// - Throws: ``RemoteLinkError/unreadableReply(_:)`` naming the field that does not fit.
    func checked() throws(RemoteLinkError) -> Self {
        switch self {
        case .tooLarge(let bytes, _) where bytes < 0:
            throw .unreadableReply("RemoteRefusal.tooLarge.bytes is \(bytes)")
        case .tooLarge(_, let limit) where limit < 0:
            throw .unreadableReply("RemoteRefusal.tooLarge.limit is \(limit)")
        case .unsupportedVersion(let version) where !(0...Int(UInt32.max)).contains(version):
            throw .unreadableReply("RemoteRefusal.unsupportedVersion is \(version)")
        case .newerSchemaVersion(_, let version, let newest)
        where !(1...Int(UInt32.max)).contains(version) || !(1...Int(UInt32.max)).contains(newest):
            throw .unreadableReply("RemoteRefusal.newerSchemaVersion is \(version), reading up to \(newest)")
        default:
            return self
        }
    }
}

extension WireOutcome {
    /// The most hops, and the highest hop, an outcome from another process may count: 2³¹ − 1.
    /// This side adds its own hops to them, which must never overflow; no chain comes near.
    static let maxHops = Int(Int32.max)
}

/// The names of information the other process had at the end of an event's way there but could
/// not send back (its keys are not registered there): set in a forwarded send's outcome, so that
/// nothing is dropped unseen.
public enum InfoLeftRemote: InfoKey {
    /// The keys' ``InfoKey/name``s.
    public typealias Value = [String]
}

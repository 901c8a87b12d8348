import ResponderChain

extension WireOutcome {
    /// `outcome` on the wire, its information written by `registry`; what `registry` cannot
    /// write is listed in ``infoLeftBehind``.
    init(_ outcome: Outcome, registry: RemoteRegistry) {
        let written = try? registry.write(outcome.info)
        self.kind = outcome.kind.rawValue
        self.hops = outcome.hops
        self.captureHops = outcome.path.captureHops
        self.handlers = outcome.handlers.map(WireResponder.init)
        self.captureHandlerCount = outcome.path.captureHandlers.count
        self.info = written?.values ?? []
        self.infoLeftBehind =
            written?.unregistered ?? outcome.info.keyNames.filter { $0 != ArrivedAwaited.name }
        self.phase = EventContext.Phase.bubble.wireName
        self.attempts = outcome.path.attempts > 1 ? outcome.path.attempts : nil
        switch outcome {
        case .handled(let handled):
            responder = WireResponder(handled.stoppedAt)
            phase = handled.phase.wireName
        case .unhandled(let unhandled):
            responder = WireResponder(unhandled.root)
        case .interrupted(let broken):
            responder = WireResponder(broken.lastReached)
        case .cycleDetected(let cycle):
            responder = WireResponder(cycle.repeated)
            closedBy = WireResponder(cycle.closedBy)
            isForwardingLoop = cycle.isForwardingLoop ? true : nil
        case .cancelled(let stop), .timedOut(let stop):
            responder = WireResponder(stop.responder)
            phase = stop.phase.wireName
            hop = stop.hop
            whileHandling = stop.whileHandling
            stopReason = stop.reason.wireName
            lastReached = stop.whileHandling ? nil : stop.lastReached.map(WireResponder.init)
        case .failed(let failure):
            responder = WireResponder(failure.responder)
            phase = failure.phase.wireName
            hop = failure.hop
            error =
                failure.error as? RemoteHandlerError
                ?? RemoteHandlerError(
                    type: String(reflecting: type(of: failure.error)), message: "\(failure.error)")
        case .rejected(let rejection):
            responder = WireResponder(rejection.sender)
            let reason = rejection.reason.wire
            self.rejection = reason.name
            self.limit = reason.limit
        }
    }
}

extension WireResponder {
    /// `responder` on the wire.
    init(_ responder: ResponderID) {
        self.init(id: UInt64(UInt(bitPattern: responder.objectID)), label: responder.label)
    }
}

/// The traced form of a hop, used by ``EventContext/visit(_:event:)`` only when a tracer is
/// installed: the untraced path never reaches this code, reads no clock and allocates nothing.
extension EventContext {
    /// Runs `responder`'s handlers inside `trace`'s scope and reports the hop.
    ///
    /// `isolation` is the caller's `#isolation`: the isolation the hop actually runs on.
    nonisolated(nonsending) mutating func handleTraced(
        _ responder: some Responder,
        event: any Event,
        trace: any ActiveTrace,
        isolation: (any Actor)?
    ) async -> Result<Disposition, any Error> {
        let hop = Hop(
            eventID: eventID,
            number: self.hop,
            responder: ResponderID(responder),
            eventName: event.traceName,
            isolation: HopIsolation(isolation, at: responder)
        )
        trace.record(.hopEntered(hop))

        var handled: Result<Disposition, any Error>?
        var calls = 0
        var added: [AddedInfo] = []
        var duration = Duration.zero
        var scopeError: (any Error)?
        do {
            // What the scope returns is ignored: the hop's result is what the handlers did.
            _ = try await trace.withHop(hop) {
                calls += 1
                guard calls == 1 else {
                    throw TracerViolation(
                        kind: .handlerRunAgain, hop: hop, tracer: trace.tracerName, underlying: nil)
                }
                let before = self.info
                let start = ContinuousClock.now
                let result: Result<Disposition, any Error>
                do {
                    result = .success(try await responder.handle(event, context: &self))
                } catch {
                    result = .failure(error)
                }
                duration = start.duration(to: .now)
                added = self.info.added(since: before).map { AddedInfo(name: $0.name, value: $0.value) }
                handled = result
                return try result.get()
            }
        } catch {
            scopeError = error
        }

        let result: Result<Disposition, any Error>
        if let handled {
            result = handled
        } else if stopReason != nil {
            // The scope gave up because the send was cancelled or timed out: report that.
            result = .failure(CancellationError())
        } else {
            result = .failure(
                TracerViolation(
                    kind: .handlerNotRun, hop: hop, tracer: trace.tracerName, underlying: scopeError))
        }
        trace.record(.hopLeft(HopRecord(hop: hop, result: result, added: added, duration: duration)))
        return result
    }
}

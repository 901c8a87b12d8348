/// The traced form of a hop, used by ``EventContext/hop(at:event:)`` only when the send is
/// traced: the untraced path (no tracer, or one that declined the send) never reaches this code,
/// reads no clock and allocates nothing.
///
/// Beyond the tracer's own work, a traced hop builds the `Hop` value (reading the responder's
/// ``Responder/label``; the event's name is computed once per send), reads the system's clock around the
/// handlers, and compares the event's information with a copy taken before them (its values are
/// printed only when the handlers changed it).
extension EventContext {
    /// Runs `responder`'s handlers inside `trace`'s scope and reports the hop.
    ///
    /// `isolation` is the caller's `#isolation`: the isolation the hop actually runs on.
    @usableFromInline
    nonisolated(nonsending) mutating func traced(
        _ responder: some Responder,
        event: any Event,
        trace: any ActiveTrace,
        isolation: (any Actor)?
    ) async -> HopResult {
        let hop = Hop(
            eventID: eventID,
            number: self.hop,
            responder: ResponderID(responder),
            eventName: trace.eventName,
            isolation: Hop.Isolation(isolation, at: responder),
            phase: phase
        )
        trace.record(.hopEntered(hop))
        guard !trace.hasScope else {
            let record = await scoped(responder, event: event, hop: hop, trace: trace)
            trace.record(.hopLeft(record))
            return HopResult(record.result)
        }
        // A plain tracer's hop: the handlers with nothing around them but the clock. Kept inline,
        // not in a generic async helper (see "Design notes measured" in Benchmarks.md).
        let before = info
        let start = clockNow
        let result = await handlersInMiddleware(responder, event: event)
        let duration = clockNow - start
        trace.record(
            .hopLeft(
                Hop.Record(
                    hop: hop, result: result.asResult, added: info.addedInfo(since: before),
                    duration: duration))
        )
        return result
    }

    /// The current instant of the send's clock, for the hop's duration (a traced send always
    /// holds its system's timers).
    private var clockNow: EventSystem.Instant {
        clock?.timers.now ?? EventSystem.Instant(offset: .zero)
    }

    /// A scoping tracer's hop: the handlers inside its scope, which must call them exactly once.
    @inline(__always)
    private nonisolated(nonsending) mutating func scoped(
        _ responder: some Responder,
        event: any Event,
        hop: Hop,
        trace: any ActiveTrace
    ) async -> Hop.Record {
        var handled: Result<Disposition, any Error>?
        var calls = 0
        var added: [Hop.AddedInfo] = []
        var duration = Duration.zero
        var scopeError: (any Error)?
        do {
            // What the scope returns is ignored: the hop's result is what the handlers did.
            _ = try await trace.withHop(hop) {
                calls += 1
                guard calls == 1 else {
                    throw ResponderChainError.tracerRanHandlersAgain(hop: hop, tracer: trace.tracerName)
                }
                let before = self.info
                let start = clockNow
                let result = await handlersInMiddleware(responder, event: event).asResult
                duration = clockNow - start
                added = self.info.addedInfo(since: before)
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
        } else if let skipped = scopeError as? HandlersSkipped {
            // One of several scopes (a multiplexer's) did not run its body: name that one.
            result = .failure(
                ResponderChainError.tracerSkippedHandlers(
                    hop: hop, tracer: skipped.tracer, cause: skipped.underlying))
        } else {
            result = .failure(
                ResponderChainError.tracerSkippedHandlers(
                    hop: hop, tracer: trace.tracerName, cause: scopeError))
        }
        return Hop.Record(hop: hop, result: result, added: added, duration: duration)
    }
}

extension HopResult {
    /// The result of handlers that ran: their decision, or what they threw.
    init(_ result: Result<Disposition, any Error>) {
        switch result {
        case .success(let disposition): self = .decided(disposition)
        case .failure(let error): self = .threw(error)
        }
    }

    /// The decision as a `Result`, for a ``Hop/Record``; a hop that never began reports a
    /// `CancellationError` (it is never recorded: its hop is not entered).
    var asResult: Result<Disposition, any Error> {
        switch self {
        case .decided(let disposition): return .success(disposition)
        case .threw(let error): return .failure(error)
        case .notEntered, .refused: return .failure(CancellationError())
        }
    }
}

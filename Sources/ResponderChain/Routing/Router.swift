/// The routing loop: carries one event hop by hop up the live chain and turns what happens into
/// exactly one ``Outcome``.
///
/// ```
///  sender ─▶ check stop ─▶ check cycle ─▶ visit (handle, read next) ─▶ disposition?
///              │ cancelled/        │ seen              │ threw           ├ handled ─▶ .handled
///              │ timed out         ▼                   ▼                 ├ continue ┐
///              ▼            .cycleDetected          .failed              └ pass ────┤
///        .cancelled/.timedOut                                      next? ◀──────────┘
///                                                   ├ some: loop  ├ nil, root: .handled/.unhandled
///                                                   └ nil, not a root: .interrupted
/// ```
///
/// The loop runs where its caller runs (`nonisolated(nonsending)`): a send from an actor, or from
/// the main actor, visits responders that share that executor without a thread switch.
enum Router {
    /// Routes `event` from `sender` and returns its outcome. The outcome has already been given to
    /// the dead-letter sink and the tracer when this returns.
    ///
    /// `trace` is the tracing captured when a posted event was posted (see ``TraceCapture``);
    /// `nil` for an awaited send, which captures here, in the sending task.
    static nonisolated(nonsending) func send(
        _ event: any Event,
        from sender: any Responder,
        source: EventSource,
        options: SendOptions,
        signal: CancellationSignal? = nil,
        trace captured: TraceCapture? = nil
    ) async -> Outcome {
        let router = sender.router
        // A posted event brings the capture made at post time; an awaited send captures now.
        let capture = captured ?? TraceCapture(tracer: options.tracer ?? router.tracer)
        let trace = capture.trace
        var context = EventContext(
            key: EventKey(of: event),
            source: source,
            trace: trace,
            signal: signal,
            deadline: options.deadline,
            eventID: capture.eventID
        )
        trace?.record(
            .sent(
                TraceEvent.Sent(
                    eventID: capture.eventID, eventName: event.traceName, source: source,
                    queued: capture.queuedDuration())))

        let outcome: Outcome
        if let deadline = options.deadline {
            outcome = await routeRacing(
                deadline: deadline, event, from: sender, start: options.start, context: context,
                isolation: #isolation)
        } else {
            outcome = await route(event, from: sender, start: options.start, context: &context)
        }

        if outcome.kind == .unhandled || outcome.kind == .interrupted,
            let sink = options.deadLetters ?? router.deadLetters
        {
            await sink.deliver(DeadLetter(event: event, source: source, outcome: outcome))
            trace?.record(.deadLettered(outcome))
        }
        trace?.record(.finished(outcome))
        return outcome
    }

    /// A send with a deadline runs its hops in a child task, raced by a timer that cancels it when
    /// the deadline passes, so that a handler parked mid-flight is woken (it sees
    /// `Task.isCancelled`) and the send ends ``Outcome/timedOut(_:)`` on time.
    ///
    /// The child enters the sender's isolation (`isolation`) once and runs the whole route there,
    /// as an awaited send without a deadline does: hops between responders on that executor (the
    /// main actor, a shared executor) stay back to back.
    private static nonisolated(nonsending) func routeRacing(
        deadline: ContinuousClock.Instant,
        _ event: any Event,
        from sender: any Responder,
        start: SendOptions.Start,
        context: EventContext,
        isolation: (any Actor)?
    ) async -> Outcome {
        await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                await routeIsolated(event, from: sender, start: start, context: context, isolation: isolation)
            }
            group.addTask {
                try? await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            var result: Outcome?
            while let finished = await group.next() {
                if let outcome = finished {
                    result = outcome
                    group.cancelAll()
                } else if result == nil {
                    group.cancelAll()  // the deadline passed: stop the route; it reports timedOut
                }
            }
            // The route child always returns an outcome.
            return result
                ?? .timedOut(
                    Outcome.Stop(
                        path: Outcome.Path(
                            eventID: context.eventID, hops: 0, handlers: [], info: context.info),
                        responder: ResponderID(sender), hop: 1, whileHandling: false))
        }
    }

    /// ``route(_:from:start:context:)`` on `isolation`.
    private static func routeIsolated(
        _ event: any Event,
        from sender: any Responder,
        start: SendOptions.Start,
        context: EventContext,
        isolation: isolated (any Actor)?
    ) async -> Outcome {
        var context = context
        return await route(event, from: sender, start: start, context: &context)
    }

    /// The loop itself.
    static nonisolated(nonsending) func route(
        _ event: any Event,
        from sender: any Responder,
        start: SendOptions.Start,
        context: inout EventContext
    ) async -> Outcome {
        var handlers: [ResponderID] = []
        var visited = VisitedResponders()

        func path() -> Outcome.Path {
            Outcome.Path(eventID: context.eventID, hops: context.hop, handlers: handlers, info: context.info)
        }

        var current = sender
        if start == .atNext {
            if let stop = context.stopReason {
                return stopped(stop, at: sender, hop: 1, whileHandling: false, path: path())
            }
            guard let next = await sender.next else {
                return sender.isRoot
                    ? .unhandled(Outcome.Unhandled(path: path(), root: ResponderID(sender)))
                    : .interrupted(Outcome.Interruption(path: path(), lastReached: ResponderID(sender)))
            }
            _ = visited.insert(sender)
            current = next
        }

        var previous: (any Responder)?
        while true {
            if let stop = context.stopReason {
                return stopped(stop, at: current, hop: context.hop + 1, whileHandling: false, path: path())
            }
            guard visited.insert(current) else {
                return .cycleDetected(
                    Outcome.Cycle(
                        path: path(),
                        repeated: ResponderID(current),
                        closedBy: ResponderID(previous ?? sender)))
            }
            context.hop += 1
            let visit = await current.visit(event, context: &context)

            switch visit.result {
            case .failure(let error):
                if let stop = context.stopReason, error is CancellationError {
                    return stopped(stop, at: current, hop: context.hop, whileHandling: true, path: path())
                }
                return .failed(
                    Outcome.Failure(
                        path: path(), error: error, responder: ResponderID(current), hop: context.hop))
            case .success(.handled):
                handlers.append(ResponderID(current))
                return .handled(Outcome.Handled(path: path(), stoppedAt: ResponderID(current)))
            case .success(.handledAndContinue):
                handlers.append(ResponderID(current))
            case .success(.pass):
                break
            }

            guard let next = visit.next else {
                if current.isRoot {
                    return handlers.isEmpty
                        ? .unhandled(Outcome.Unhandled(path: path(), root: ResponderID(current)))
                        : .handled(Outcome.Handled(path: path(), stoppedAt: ResponderID(current)))
                }
                return .interrupted(Outcome.Interruption(path: path(), lastReached: ResponderID(current)))
            }
            previous = current
            current = next
        }
    }

    private static func stopped(
        _ reason: StopReason,
        at responder: any Responder,
        hop: Int,
        whileHandling: Bool,
        path: Outcome.Path
    ) -> Outcome {
        let stop = Outcome.Stop(
            path: path, responder: ResponderID(responder), hop: hop, whileHandling: whileHandling)
        switch reason {
        case .cancellation: return .cancelled(stop)
        case .deadline: return .timedOut(stop)
        }
    }
}

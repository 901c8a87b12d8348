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
@usableFromInline
enum Router {
    /// Routes `event` from `sender` and returns its outcome: the one send path of awaited sends,
    /// relayed sends and posted events. The outcome has already been given to the dead-letter
    /// sink, the streams and the tracer when this returns.
    ///
    /// `trace` is the tracing captured when a posted event was posted (see ``TraceCapture``),
    /// with the options whose timeout was started then; `nil` for an awaited send, which captures
    /// here, in the sending task. `signal` is a posted event's ticket, and `depth` the depth its
    /// route starts at (see ``Lineage/depthOfNewRoute``).
    @usableFromInline
    static nonisolated(nonsending) func send(
        _ event: any Event,
        from sender: any Responder,
        source: EventSource,
        options given: SendOptions,
        signal: CancellationSignal? = nil,
        trace captured: TraceCapture? = nil,
        depth: Int = 0,
        retrying: PostRetrying? = nil
    ) async -> Outcome {
        // The common set-up first: an awaited send with no deadline, signal or tracer of its
        // own, that no tracer of its system traces, builds its context from constants.
        if captured == nil, signal == nil, given.needsNoSetUp {
            let system = await sender.eventSystem
            let eventID: EventID
            if system.traceBinder == nil {
                eventID = EventID.next()
            } else {
                // The tracers' gates decide here: a send they all decline stays on this path.
                let capture = TraceCapture(event, from: source, system: system, options: given)
                guard capture.trace == nil else {
                    return await send(
                        event, from: sender, source: source, options: given, signal: nil, capture: capture)
                }
                eventID = capture.eventID
            }
            var context = EventContext(
                key: EventKey(of: event), source: source, info: given.info, trace: nil, signal: nil,
                clock: nil, eventID: eventID, middleware: system.middleware,
                runsCapturePhase: system.runsCapturePhase, forwardingLimit: system.forwardingLimit)
            let outcome = await route(event, from: sender, start: given.start, context: &context)
            // The options are not handed to an async ending: that would copy them into its frame.
            guard outcome.goesToDeadLetters else {
                return publish(outcome, of: event, source: source, system: system, trace: nil)
            }
            return await end(
                outcome, of: event, source: source, system: system,
                deadLetters: given.deadLetters ?? system.deadLetters, trace: nil)
        }
        if let captured {
            return await send(
                event, from: sender, source: source, options: given, signal: signal, capture: captured,
                depth: depth, retrying: retrying)
        }
        let system = await sender.eventSystem
        let options = given.started(on: system.timers)
        return await send(
            event, from: sender, source: source, options: options, signal: signal,
            capture: TraceCapture(event, from: source, system: system, options: options))
    }

    /// ``send(_:from:source:options:signal:trace:)`` once its tracing is captured: the `sent`
    /// record, the context with its signal and deadline, the route (raced by the deadline's
    /// timer, if any) and the ending.
    private static nonisolated(nonsending) func send(
        _ event: any Event,
        from sender: any Responder,
        source: EventSource,
        options: SendOptions,
        signal: CancellationSignal?,
        capture: TraceCapture,
        depth: Int = 0,
        retrying stored: PostRetrying? = nil
    ) async -> Outcome {
        let system = capture.system
        capture.recordSent(from: source)
        // A stored post that failed before waits the rest of its wait first.
        var waited: SendEnding?
        if let stored, let notBefore = stored.notBefore {
            let stop: Outcome.Stop?
            (stop, waited) = await waitForRetry(
                until: options.deadline.map { min($0, notBefore) } ?? notBefore, attempt: stored.firstAttempt,
                of: capture.eventID, at: sender, info: options.info, signal: signal, system: system)
            if let stop {
                defer { waited?.end() }
                var outcome = Outcome.cancelled(stop)
                outcome.setAttempts(stored.earlier.count)
                guard outcome.goesToDeadLetters(signal: signal) else {
                    return publish(outcome, of: event, source: source, system: system, trace: capture.trace)
                }
                return await end(
                    outcome, of: event, source: source, system: system,
                    deadLetters: options.deadLetters ?? system.deadLetters, trace: capture.trace,
                    deadLettered: true,
                    earlierAttempts: stored.earlier)
            }
        }

        // Signalled once the outcome is published: a test clock's advance waits for it.
        var ending: SendEnding?
        defer { ending?.end() }
        var outcome: Outcome
        (outcome, ending) = await attempt(
            event, from: sender, source: source, options: options, signal: signal, capture: capture,
            depth: depth)
        var earlierAttempts: [DeadLetter.Attempt] = []
        var retried: SendEnding?
        defer { retried?.end() }
        // Only an outcome that may be retried looks for a policy: a handled send pays nothing.
        // (A stored post that failed before has a history to carry, whatever this attempt did.)
        if stored?.earlier.isEmpty == false || stored?.notBefore != nil
            || (outcome.mayBeRetried
                && (options.retryPolicy != nil || (signal != nil && system.retryPolicies != nil)))
        {
            (outcome, earlierAttempts, retried) = await retrying(
                event, from: sender, after: outcome, ending: &ending, options: options, signal: signal,
                id: capture.eventID, system: system, stored: stored, settled: waited
            ) {
                await attempt(
                    event, from: sender, source: source, options: options, signal: signal, capture: capture,
                    depth: depth)
            }
        }
        guard outcome.goesToDeadLetters(signal: signal) else {
            return publish(outcome, of: event, source: source, system: system, trace: capture.trace)
        }
        return await end(
            outcome, of: event, source: source, system: system,
            deadLetters: options.deadLetters ?? system.deadLetters, trace: capture.trace, deadLettered: true,
            earlierAttempts: earlierAttempts)
    }

    /// One attempt of a send: its context (with its signal and deadline), and the route, raced
    /// by the deadline's timer if there is one. Returns the outcome, not yet published, and the
    /// send's ending for a test clock.
    private static nonisolated(nonsending) func attempt(
        _ event: any Event,
        from sender: any Responder,
        source: EventSource,
        options: SendOptions,
        signal: CancellationSignal?,
        capture: TraceCapture,
        depth: Int
    ) async -> (outcome: Outcome, ending: SendEnding?) {
        let system = capture.system
        var context = EventContext(
            key: EventKey(of: event),
            source: source,
            info: options.info,
            trace: capture.trace,
            // A deadline needs a signal for its timer to name itself with (see `stopReason`).
            signal: signal ?? options.withdrawal
                ?? (options.deadline == nil ? nil : CancellationSignal()),
            // What reads the clock: the deadline's checks, and the tracer's hop durations.
            clock: options.deadline == nil && capture.trace == nil
                ? nil : SendClock(timers: system.timers, deadline: options.deadline),
            eventID: capture.eventID,
            middleware: system.middleware,
            runsCapturePhase: system.runsCapturePhase,
            forwardingLimit: system.forwardingLimit
        )
        if let deadline = options.deadline {
            return await routeRacing(
                deadline: deadline, on: system.timers, event, from: sender, start: options.start,
                context: context, depth: depth, isolation: #isolation)
        }
        return (await route(event, from: sender, start: options.start, context: &context, depth: depth), nil)
    }

    /// The one ending of every send and post, delivered or not: the dead-letter sink and the
    /// dead-letter streams (for the outcomes that go there, see ``Outcome/goesToDeadLetters``,
    /// or when `deadLettered`: a post that did not end handled, see
    /// ``Outcome/goesToDeadLetters(signal:)``), then the outcome streams, then the tracer's
    /// `finished`. Returns `outcome`.
    @inline(__always)
    static nonisolated(nonsending) func end(
        _ outcome: Outcome,
        of event: any Event,
        source: EventSource,
        system: EventSystem,
        deadLetters: DeadLetter.Sink?,
        trace: (any ActiveTrace)?,
        deadLettered: Bool = false,
        earlierAttempts: [DeadLetter.Attempt] = []
    ) async -> Outcome {
        if deadLettered || outcome.goesToDeadLetters {
            let letter = DeadLetter(
                event: event, source: source, outcome: outcome, earlierAttempts: earlierAttempts)
            if let sink = deadLetters {
                await sink.deliver(letter)
                trace?.record(.deadLettered(outcome))
            }
            if system.observers.deadLetters.isObserved {
                system.observers.deadLetters.publish(letter)
            }
        }
        return publish(outcome, of: event, source: source, system: system, trace: trace)
    }

    /// The last step of every ending, the only one an outcome that does not go to dead letters
    /// needs (so a ticket can end a queued post without suspending): the outcome streams, then
    /// the tracer's `finished`. Returns `outcome`.
    @inline(__always)
    static func publish(
        _ outcome: Outcome,
        of event: any Event,
        source: EventSource,
        system: EventSystem,
        trace: (any ActiveTrace)?
    ) -> Outcome {
        if system.observers.outcomes.isObserved {
            system.observers.outcomes.publish(
                EventSystem.FinishedSend(event: event, source: source, outcome: outcome))
        }
        trace?.record(.finished(outcome))
        return outcome
    }

    /// A send with a deadline runs its hops in a task of its own, and schedules a timer on its
    /// system's clock that cancels that task when the deadline passes, so that a handler parked
    /// mid-flight is woken (it sees `Task.isCancelled`) and the send ends ``Outcome/timedOut(_:)``
    /// on time. The timer is removed when the route ends first; cancelling the sending task
    /// cancels the route.
    ///
    /// The task enters the sender's isolation (`isolation`) once and runs the whole route there,
    /// as an awaited send without a deadline does: hops between responders on that executor (the
    /// main actor, a shared executor) stay back to back.
    ///
    /// On a scheduler that awaits its timers' work (a test clock), the timer's work also waits
    /// for the send's ending: the caller calls `end()` on the returned ``SendEnding`` once it
    /// has published the outcome. On a real clock nothing waits, and there is no ending to signal.
    private static nonisolated(nonsending) func routeRacing(
        deadline: EventSystem.Instant,
        on timers: any TimerScheduler,
        _ event: any Event,
        from sender: any Responder,
        start: SendOptions.Start,
        context: EventContext,
        depth: Int,
        isolation: (any Actor)?
    ) async -> (outcome: Outcome, ending: SendEnding?) {
        // The hops run in the route's task, made by this one (see ``Lineage``).
        let maker = Lineage.currentTask()
        let route = Task {
            await routeIsolated(
                event, from: sender, start: start, context: context, madeIn: maker, depth: depth,
                isolation: isolation)
        }
        let signal = context.signal
        let ending = timers.awaitsTimerWork ? SendEnding() : nil
        let timer = timers.schedule(at: deadline, for: .deadline(of: context.eventID, event: type(of: event)))
        {
            // Named on the signal first, so that the route, which sees its task cancelled,
            // reports it as the deadline and not as a cancel.
            signal?.cancel(.deadline)
            route.cancel()
            _ = await route.value
            await ending?.wait()
        }
        let outcome = await withTaskCancellationHandler {
            await route.value
        } onCancel: {
            route.cancel()
        }
        timers.cancel(timer)
        return (outcome, ending)
    }

    /// ``route(_:from:start:context:depth:)`` on `isolation`.
    private static func routeIsolated(
        _ event: any Event,
        from sender: any Responder,
        start: SendOptions.Start,
        context: EventContext,
        madeIn maker: UInt,
        depth: Int,
        isolation: isolated (any Actor)?
    ) async -> Outcome {
        var context = context
        return await route(event, from: sender, start: start, context: &context, madeIn: maker, depth: depth)
    }

    /// The route of one send, in its ``Lineage``: refused when it is nested deeper than the
    /// system's ``EventSystem/forwardingLimit``; otherwise its hops, with the lineage bound for
    /// the sends their handlers make. `depth` is where a posted event's route starts when no
    /// route of this task encloses it (see ``Lineage/depthOfNewRoute``).
    @inline(__always)
    static nonisolated(nonsending) func route(
        _ event: any Event,
        from sender: any Responder,
        start: SendOptions.Start,
        context: inout EventContext,
        madeIn maker: UInt? = nil,
        depth: Int = 0
    ) async -> Outcome {
        let lineage = Lineage(
            of: context.key, forwarding: context.source.isRelay, madeIn: maker, depth: depth)
        guard lineage.depth <= context.forwardingLimit else {
            return .rejected(
                Outcome.Rejection(
                    path: Outcome.Path(context, handlers: HandlerList()), sender: ResponderID(sender),
                    reason: .forwardingLimitReached(limit: context.forwardingLimit)))
        }
        defer { lineage.end() }
        // Bound for the sends the handlers make; the hops stay where the route runs.
        return await Lineage.$current.withValueKeepingIsolation(lineage) {
            await hops(event, from: sender, start: start, lineage: lineage, context: &context)
        }
    }

    /// The loop itself.
    ///
    /// A stop (cancellation, deadline, shutdown) is looked for before the first hop and at the
    /// end of every hop, after the handlers ran and `next` was read. A stop seen at the end of a
    /// hop always wins over the way that hop would have ended the send: the outcome is
    /// `.cancelled`/`.timedOut` *during* that hop when the send would end there (handled, root,
    /// broken chain), and *before* the next hop when it would go on. Only a handler's own error
    /// (anything but `CancellationError`) still ends it `.failed`.
    @inline(__always)
    private static nonisolated(nonsending) func hops(
        _ event: any Event,
        from sender: any Responder,
        start: SendOptions.Start,
        lineage: Lineage,
        context: inout EventContext
    ) async -> Outcome {
        var handlers = HandlerList()
        var visited = VisitedResponders()

        func path() -> Outcome.Path { Outcome.Path(context, handlers: handlers) }

        var current = sender
        if start == .atNext {
            if let stop = context.stopReason {
                return stopped(stop, at: sender, hop: 1, whileHandling: false, path: path())
            }
            let next = await sender.next
            if let stop = context.stopReason {
                return stopped(stop, at: next ?? sender, hop: 1, whileHandling: false, path: path())
            }
            guard let next else {
                return sender.isRoot
                    ? .unhandled(Outcome.Unhandled(path: path(), root: ResponderID(sender)))
                    : .interrupted(Outcome.Interruption(path: path(), lastReached: ResponderID(sender)))
            }
            _ = visited.insert(sender)
            current = next
        } else if let stop = context.stopReason {
            return stopped(stop, at: sender, hop: 1, whileHandling: false, path: path())
        }
        // The responder of the last hop that ran, for a stop before the next one.
        var lastRan: (any Responder)?
        if context.runsCapturePhase,
            let outcome = await capture(
                event, from: current, after: start == .atNext ? sender : nil, lineage: lineage,
                context: &context, handlers: &handlers, lastRan: &lastRan)
        {
            return outcome
        }

        // Whether a bubble hop ran: from then on the hop before this one is `lastRan` (one
        // reference to keep per hop, not two).
        var bubbled = false
        while true {
            guard visited.insert(current) else {
                return .cycleDetected(
                    Outcome.Cycle(
                        path: path(),
                        repeated: ResponderID(current),
                        closedBy: ResponderID((bubbled ? lastRan : nil) ?? sender)))
            }
            if lineage.loopsBack(at: current) {
                return .cycleDetected(
                    Outcome.Cycle(
                        path: path(), repeated: ResponderID(current),
                        closedBy: ResponderID((bubbled ? lastRan : nil) ?? sender),
                        isForwardingLoop: true))
            }
            lineage.enter(current)
            context.hop += 1
            let next = await current._visit(event, context: &context)
            let stop = context.stopReason

            if let outcome = conclude(
                at: current, after: lastRan, stop: stop, phase: .bubble,
                context: &context, handlers: &handlers)
            {
                return outcome
            }
            lastRan = current

            guard let next else {
                if let stop {
                    return stopped(stop, at: current, hop: context.hop, whileHandling: true, path: path())
                }
                if current.isRoot {
                    return handlers.isEmpty
                        ? .unhandled(Outcome.Unhandled(path: path(), root: ResponderID(current)))
                        : .handled(Outcome.Handled(path: path(), stoppedAt: ResponderID(current)))
                }
                return .interrupted(Outcome.Interruption(path: path(), lastReached: ResponderID(current)))
            }
            if let stop {
                return stopped(
                    stop, at: next, hop: context.hop + 1, whileHandling: false, after: current, path: path())
            }
            bubbled = true
            current = next
        }
    }

    /// What one hop's result (``EventContext/hopResult``) means for the send, in either pass: the
    /// outcome if the send ends at this hop (the handlers stopped it, forwarded it, threw, the hop
    /// never began, or a stop was seen while it ran), or `nil` to go on. A responder that handled
    /// the event is added to `handlers`. `stop` is the stop seen at the end of the hop, if any;
    /// `lastRan` the responder of the hop before, if one ran.
    @inline(__always)
    static func conclude(
        at responder: any Responder,
        after lastRan: (any Responder)?,
        stop: Outcome.Stop.Reason?,
        phase: EventContext.Phase,
        context: inout EventContext,
        handlers: inout HandlerList
    ) -> Outcome? {
        func path() -> Outcome.Path { Outcome.Path(context, handlers: handlers) }
        func handled() {
            if phase == .capture {
                handlers.appendCapturing(ResponderID(responder))
            } else {
                handlers.append(ResponderID(responder))
            }
        }
        func uncount() {
            context.hop -= 1
            if phase == .capture { context.captureHops = context.hop }
        }

        // Read in place: the result held apart from the context would be a copy of it (a retain
        // and a release of what it holds) at every hop.
        switch context.hopResult {
        case .decided(.pass):
            return nil
        case .decided(.handledAndContinue):
            handled()
            return nil
        case .decided(.handled):
            handled()
            if let stop {
                return stopped(
                    stop, at: responder, hop: context.hop, whileHandling: true, path: path(), phase: phase)
            }
            return .handled(Outcome.Handled(path: path(), stoppedAt: ResponderID(responder), phase: phase))
        case .decided(.forwarded(let outcome)):
            // The event went on in another chain, which ran to an end: its outcome, continued
            // from this hop, wins over a stop seen here.
            return outcome.continuing(from: path())
        case .notEntered:
            // Stopped while waiting to enter: the hop never ran.
            uncount()
            return stopped(
                stop ?? .taskCancelled, at: responder, hop: context.hop + 1, whileHandling: false,
                after: lastRan, path: path(), phase: phase)
        case .refused(let reason):
            // Refused at the door: the hop never began.
            uncount()
            return .rejected(Outcome.Rejection(path: path(), sender: ResponderID(responder), reason: reason))
        case .threw(let error):
            if let stop, error is CancellationError {
                return stopped(
                    stop, at: responder, hop: context.hop, whileHandling: true, path: path(), phase: phase)
            }
            return .failed(
                Outcome.Failure(
                    path: path(), error: error, responder: ResponderID(responder), hop: context.hop,
                    phase: phase))
        }
    }

    /// The outcome of a send stopped at `responder`'s hop: during it (`whileHandling`), or before
    /// it, after the hop of `lastReached` (`nil`: no hop ran).
    static func stopped(
        _ reason: Outcome.Stop.Reason,
        at responder: any Responder,
        hop: Int,
        whileHandling: Bool,
        after lastReached: (any Responder)? = nil,
        path: Outcome.Path,
        phase: EventContext.Phase = .bubble
    ) -> Outcome {
        let stop = Outcome.Stop(
            path: path, responder: ResponderID(responder), hop: hop, whileHandling: whileHandling,
            reason: reason, phase: phase, lastReached: lastReached.map { ResponderID($0) })
        return reason == .deadlinePassed ? .timedOut(stop) : .cancelled(stop)
    }
}

extension Outcome.Path {
    /// The path of a send so far: its context's hops (capture hops among them) and information,
    /// and the handlers the route collected.
    init(_ context: EventContext, handlers: HandlerList) {
        self.init(
            eventID: context.eventID, hops: context.hop, captureHops: context.captureHops, handlers: handlers,
            info: context.info)
    }
}

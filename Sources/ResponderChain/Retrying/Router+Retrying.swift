extension Router {
    /// Tries a send (or a post's delivery) again while its policy says so: `first` is the first
    /// attempt's outcome here, `attempt` makes one more. Returns the last attempt's outcome, its
    /// ``Outcome/Path/attempts`` set, and the attempts before it.
    ///
    /// The policy is the send's own (``SendOptions/retryPolicy``), or, for a post (`signal` is
    /// its ticket's), its system's for the outcome (``EventSystem/RetryPolicies``), looked up
    /// again after each attempt. The wait runs on the system's clock; it is not begun when it
    /// would end at or after the send's deadline, or once the signal is set, and a cancellation
    /// of the waiting task (a ticket's `cancel`, a shutdown's end, an awaited sender's task) ends
    /// the send ``Outcome/cancelled(_:)`` at once, before hop 1 of the attempt it waited for.
    ///
    /// A stored post (`stored`) counts on from the failures its store recorded, and each new
    /// failure is recorded there before its wait, so that a crash during the wait loses no
    /// count; an attempt whose lease was lost (a store's fence refused its write) is neither
    /// recorded nor tried again here: another consumer holds the post's key now. `ending` is the last attempt's, ended before the next attempt replaces it (a test
    /// clock waits only for the last one); `settled` (from the wait before the first attempt,
    /// if any), which the caller ends once the outcome is published, is what the last wait's
    /// timer waits for.
    static nonisolated(nonsending) func retrying(
        _ event: any Event,
        from sender: any Responder,
        after first: Outcome,
        ending: inout SendEnding?,
        options: SendOptions,
        signal: CancellationSignal?,
        id: EventID,
        system: EventSystem,
        stored: PostRetrying? = nil,
        settled firstSettled: SendEnding? = nil,
        attempt: () async -> (outcome: Outcome, ending: SendEnding?)
    ) async -> (outcome: Outcome, earlier: [DeadLetter.Attempt], settled: SendEnding?) {
        var outcome = first
        var earlier = stored?.earlier ?? []
        var number = stored?.firstAttempt ?? 1
        var settled = firstSettled
        while let policy = options.retryPolicy
            ?? (signal == nil ? nil : system.retryPolicies?.policy(for: event, endedWith: outcome)),
            policy.retries(outcome), number < policy.maximumAttempts, signal?.isCancelled != true,
            stored?.leaseLost?() != true
        {
            let ended = system.timers.now
            let next = ended + policy.backoff(before: number + 1, of: id)
            if let deadline = options.deadline, next >= deadline { break }
            earlier.append(DeadLetter.Attempt(number: number, outcome: outcome, endedAt: ended))
            await stored?.record?(number, outcome, next - ended)
            let stop: Outcome.Stop?
            (stop, settled) = await waitForRetry(
                until: next, attempt: number + 1, of: id, at: sender, info: options.info, signal: signal,
                system: system, after: settled)
            if let stop {
                outcome = .cancelled(stop)
                break
            }
            ending?.end()
            number += 1
            (outcome, ending) = await attempt()
        }
        outcome.setAttempts(number)
        return (outcome, earlier, settled)
    }

    /// Waits on the system's clock until `instant`, before attempt `attempt` of the send `id`
    /// from `sender`; returns the stop if the waiting task is cancelled first (its reason the
    /// signal's, or the task's), and what a test clock's timer waits for once it wakes the
    /// sleeper: the caller ends it once the attempt has ended and the next wait is scheduled,
    /// or the outcome published. `woken`, the previous wait's, is ended once this one's timer
    /// is scheduled.
    static nonisolated(nonsending) func waitForRetry(
        until instant: EventSystem.Instant, attempt: Int, of id: EventID, at sender: any Responder,
        info: EventInfo, signal: CancellationSignal?, system: EventSystem, after woken: SendEnding? = nil
    ) async -> (stop: Outcome.Stop?, settled: SendEnding?) {
        let (woke, settled) = await system.timers.sleepHandingOver(
            until: instant, for: .retry(of: id, attempt: attempt), after: woken)
        if woke { return (nil, settled) }
        let reason = signal?.reason.map(Outcome.Stop.Reason.init) ?? .taskCancelled
        let stop = Outcome.Stop(
            path: Outcome.Path(eventID: id, hops: 0, info: info), responder: ResponderID(sender), hop: 1,
            whileHandling: false, reason: reason)
        return (stop, settled)
    }
}

extension Outcome {
    /// Records in the outcome's path that the event was tried `attempts` times.
    mutating func setAttempts(_ attempts: Int) {
        let count = UInt32(clamping: attempts)
        switch self {
        case .handled(var details): details.path.attemptCount = count; self = .handled(details)
        case .unhandled(var details): details.path.attemptCount = count; self = .unhandled(details)
        case .interrupted(var details): details.path.attemptCount = count; self = .interrupted(details)
        case .cycleDetected(var details): details.path.attemptCount = count; self = .cycleDetected(details)
        case .cancelled(var details): details.path.attemptCount = count; self = .cancelled(details)
        case .timedOut(var details): details.path.attemptCount = count; self = .timedOut(details)
        case .failed(var details): details.path.attemptCount = count; self = .failed(details)
        case .rejected(var details): details.path.attemptCount = count; self = .rejected(details)
        }
    }

    /// Whether a ``EventSystem/RetryPolicy`` could try this outcome again: failed, timed out or
    /// interrupted.
    var mayBeRetried: Bool {
        switch self {
        case .failed, .timedOut, .interrupted: true
        case .handled, .unhandled, .cycleDetected, .cancelled, .rejected: false
        }
    }
}

extension Router {
    /// Tries a send (or a post's delivery) again while its policy says so: `first` is the first
    /// attempt's outcome, `attempt` makes one more. Returns the last attempt's outcome, its
    /// ``Outcome/Path/attempts`` set, and the attempts before it.
    ///
    /// The policy is the send's own (``SendOptions/retryPolicy``), or, for a post (`signal` is
    /// its ticket's), its system's for the outcome (``EventSystem/RetryPolicies``), looked up
    /// again after each attempt. The wait runs on the system's clock; it is not begun when it
    /// would end at or after the send's deadline, or once the signal is set, and a cancellation
    /// of the waiting task (a ticket's `cancel`, a shutdown's end, an awaited sender's task) ends
    /// the send ``Outcome/cancelled(_:)`` at once, before hop 1 of the attempt it waited for. `ending` is the last attempt's, ended before
    /// the next attempt replaces it (a test clock waits only for the last one); `settled`, which
    /// the caller ends once the outcome is published, is what the last wait's timer waits for.
    static nonisolated(nonsending) func retrying(
        _ event: any Event,
        from sender: any Responder,
        after first: Outcome,
        ending: inout SendEnding?,
        options: SendOptions,
        signal: CancellationSignal?,
        id: EventID,
        system: EventSystem,
        attempt: () async -> (outcome: Outcome, ending: SendEnding?)
    ) async -> (outcome: Outcome, earlier: [DeadLetter.Attempt], settled: SendEnding?) {
        var outcome = first
        var earlier: [DeadLetter.Attempt] = []
        var number = 1
        // For a test clock: the wait's timer returns once the attempt it woke has ended and the
        // next wait is scheduled, or, after the last attempt, once the send has published its
        // outcome (the caller ends it then).
        var settled: SendEnding?
        while let policy = options.retryPolicy
            ?? (signal == nil ? nil : system.retryPolicies?.policy(for: event, endedWith: outcome)),
            policy.retries(outcome), number < policy.maximumAttempts, signal?.isCancelled != true
        {
            let ended = system.timers.now
            let next = ended + policy.backoff(before: number + 1, of: id)
            if let deadline = options.deadline, next >= deadline { break }
            earlier.append(DeadLetter.Attempt(number: number, outcome: outcome, endedAt: ended))
            let woken = settled
            let waking = system.timers.awaitsTimerWork ? SendEnding() : nil
            settled = waking
            var settle: (@Sendable () async -> Void)?
            if let waking { settle = { await waking.wait() } }
            do {
                try await system.timers.sleep(
                    until: next, for: .retry(of: id, attempt: number + 1), settle: settle,
                    scheduled: { woken?.end() })
            } catch {
                woken?.end()
                let reason = signal?.reason.map(Outcome.Stop.Reason.init) ?? .taskCancelled
                outcome = .cancelled(
                    Outcome.Stop(
                        path: Outcome.Path(eventID: id, hops: 0, info: options.info),
                        responder: ResponderID(sender), hop: 1, whileHandling: false, reason: reason))
                break
            }
            ending?.end()
            number += 1
            (outcome, ending) = await attempt()
        }
        outcome.setAttempts(number)
        return (outcome, earlier, settled)
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

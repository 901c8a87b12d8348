extension Outcome {
    /// The outcome of `post`, which this system stored in a shared store and another consumer
    /// delivered and finished, as the store recorded it (`stored`).
    ///
    /// Its kind is the other consumer's; what happened there is in the other process, so its
    /// path holds the hop count the recorded description gives and no handlers, its responders
    /// are named "another consumer", a failure's error is the recorded outcome itself, and a
    /// stop's or a rejection's reason is read back from the description (``Outcome/description``
    /// names it). A rejection whose reason this version cannot read keeps the description as a
    /// ``Outcome/Rejection/Reason/notStored(_:)`` reason.
    init(finishedElsewhere stored: EventSystem.StoredOutcome, of post: PendingPost, system: EventSystem) {
        self.init(recorded: stored, eventID: post.ticket.eventID, by: "another consumer", system: system)
    }

    /// The outcome a store recorded (`stored`) for the post `eventID`, read as
    /// ``init(finishedElsewhere:of:system:)`` says, its responders named `label`.
    init(recorded stored: EventSystem.StoredOutcome, eventID: EventID, by label: String, system: EventSystem)
    {
        let path = Outcome.Path(eventID: eventID, hops: stored.hops, info: EventInfo())
        let elsewhere = ResponderID(objectID: ObjectIdentifier(system), label: label)
        func stop(_ reason: Outcome.Stop.Reason) -> Outcome.Stop {
            Outcome.Stop(
                path: path, responder: elsewhere, hop: max(1, stored.hops), whileHandling: false,
                reason: reason)
        }
        switch stored.kind {
        case .handled:
            let path = Outcome.Path(eventID: eventID, hops: stored.hops, handlers: [elsewhere])
            self = .handled(Outcome.Handled(path: path, stoppedAt: elsewhere))
        case .unhandled:
            self = .unhandled(Outcome.Unhandled(path: path, root: elsewhere))
        case .interrupted:
            self = .interrupted(Outcome.Interruption(path: path, lastReached: elsewhere, cause: stored))
        case .cycleDetected:
            self = .cycleDetected(Outcome.Cycle(path: path, repeated: elsewhere, closedBy: elsewhere))
        case .cancelled:
            let reasons: [Outcome.Stop.Reason] = [
                .taskCancelled, .ticketCancelled, .shutdown, .withdrawn, .keptForNextStart,
            ]
            let reason = reasons.first { stored.description.hasSuffix("(\($0))") } ?? .withdrawn
            self = .cancelled(stop(reason))
        case .timedOut:
            self = .timedOut(stop(.deadlinePassed))
        case .failed:
            self = .failed(
                Outcome.Failure(path: path, error: stored, responder: elsewhere, hop: max(1, stored.hops)))
        case .rejected:
            let reasons: [Outcome.Rejection.Reason] = [.posterCancelled, .shuttingDown, .wouldDeadlock]
            let reason =
                reasons.first { stored.description.hasSuffix(": \($0)") } ?? .notStored(stored.description)
            self = .rejected(Outcome.Rejection(path: path, sender: elsewhere, reason: reason))
        }
    }
}

extension EventSystem.StoredOutcome: Error {
    /// The hop count the description gives (`… after 3 hops`), or 0.
    var hops: Int {
        let words = description.split(separator: " ")
        guard words.count >= 3, words[words.count - 3] == "after", words.last?.hasPrefix("hop") == true
        else { return 0 }
        return Int(words[words.count - 2]) ?? 0
    }
}

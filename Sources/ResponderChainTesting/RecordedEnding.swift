import ResponderChain

/// One ending of a send or post through a store's system: its outcome, its dead letter if it
/// went there, and what asserted it.
struct RecordedEnding: Sendable {
    let eventID: EventID
    var finished: EventSystem.FinishedSend?
    var deadLetter: DeadLetter?
    /// A receive took its outcome.
    var outcomeReceived = false
    /// A receive took its dead letter.
    var deadLetterReceived = false
    /// The store sent it, and returned its outcome.
    var sentThroughStore = false

    /// The event, as it was sent.
    let event: any Event
    /// How it ended.
    let outcome: Outcome

    init(eventID: EventID, finished: EventSystem.FinishedSend) {
        self.eventID = eventID
        self.finished = finished
        self.event = finished.event
        self.outcome = finished.outcome
    }

    init(eventID: EventID, deadLetter: DeadLetter) {
        self.eventID = eventID
        self.deadLetter = deadLetter
        self.event = deadLetter.event
        self.outcome = deadLetter.outcome
    }

    /// Whether anything asserted it.
    var isAsserted: Bool { outcomeReceived || deadLetterReceived || sentThroughStore }
}

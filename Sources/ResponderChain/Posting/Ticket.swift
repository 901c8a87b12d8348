/// The handle of a posted event: cancel it, or await its outcome.
///
/// `post` returns a ticket as soon as the event is accepted (or rejected); the event is then
/// delivered by its sender's queue, in post order. The ticket can be dropped: the event is still
/// delivered, and its outcome still reaches the tracer and the dead-letter sink.
///
/// ```swift
/// let ticket = await lineItem.post(ItemAdded(sku: "A-1"))
/// …
/// ticket.cancel()                      // stops it before its next hop
/// switch await ticket.outcome {        // exactly one outcome, also after cancel()
/// case .handled(let handled): print(handled.handlers)
/// case .cancelled(let stop):  print("stopped at hop", stop.hop)
/// default:                    break
/// }
/// ```
public struct Ticket: Hashable, Sendable {
    let state: TicketState

    /// The correlation identifier of the posted event (the ``Outcome/eventID`` of its outcome).
    public var eventID: EventID { state.eventID }

    /// Cancels the event: a queued event never reaches its first responder; an event being
    /// delivered stops before its next hop, and the handler running now sees `Task.isCancelled`
    /// (and ``EventContext/isCancelled``). Either way the outcome is ``Outcome/cancelled(_:)``.
    /// Has no effect once the outcome is known.
    ///
    /// The one post that ends other than handled and does not go to the dead-letter sink and
    /// streams: its holder asked for it, and has the outcome here (the outcome streams and the
    /// tracer have it too). Use ``abandon()`` when nobody will look at the ticket.
    public func cancel() {
        state.cancel()
    }

    /// Cancels the event as ``cancel()`` does, for a holder that is gone (a sender in another
    /// process that went away, say): nobody will look at its outcome, so it also goes to the
    /// dead-letter sink and streams. The outcome is ``Outcome/cancelled(_:)``, with reason
    /// ``Outcome/Stop/Reason/ticketCancelled``. Returns once a queued event has ended (an event
    /// being delivered ends in its own task). Has no effect once the outcome is known, or once
    /// the ticket is cancelled.
    public func abandon() async {
        await state.abandon()
    }

    /// Whether ``cancel()`` (or ``abandon()``) stopped the event (it was called before the event
    /// ended some other way).
    public var isCancelled: Bool {
        switch state.signal.reason {
        case .ticket, .abandoned: true
        default: false
        }
    }

    /// The outcome, once the event has finished; `nil` before.
    public var finishedOutcome: Outcome? { state.finishedOutcome }

    /// Waits for the event to finish and returns its outcome.
    ///
    /// Like `Task.value`, waiting is not cancelled with the waiting task: cancel the ticket to
    /// stop the event itself.
    public var outcome: Outcome {
        get async { await state.outcome() }
    }

    /// Two tickets are equal when they belong to the same post.
    public static func == (lhs: Ticket, rhs: Ticket) -> Bool { lhs.state === rhs.state }

    /// Hashes the post's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(state)) }
}

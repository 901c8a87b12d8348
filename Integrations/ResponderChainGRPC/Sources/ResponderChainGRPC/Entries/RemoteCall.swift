import ResponderChain
import Synchronization

/// One call a ``RemoteChainService`` serves: whether its caller went away.
///
/// gRPC tells a server that its caller went away (the caller cancelled, its connection dropped,
/// its process died) through the call's cancellation handle, not by cancelling the handler's
/// task; the cancellation may come before the event is even posted. Nobody on either side will
/// ever look at the event's outcome then: its ticket is abandoned (``Ticket/abandon()``), which
/// cancels the event (`cancelled`, `ticketCancelled`) and dead-letters it on this side.
///
/// A sender still there that gives up one event of a stream of posts says so in a frame of its
/// own: that event's ticket is cancelled (``cancel()``), as a sender's own cancellation, and is
/// not dead-lettered here.
final class RemoteCall: Sendable {
    private struct State {
        var ticket: Ticket?
        var isCancelled = false
    }

    private let givenUp = Latch()
    private let state = Mutex(State())

    /// The caller went away: the event's ticket is abandoned, now or as soon as it exists.
    func giveUp() {
        givenUp.open()
    }

    /// Records the ticket of the call's event; cancels it at once if the sender cancelled
    /// already.
    func attach(_ ticket: Ticket) {
        let cancelled = state.withLock { state in
            state.ticket = ticket
            return state.isCancelled
        }
        if cancelled { ticket.cancel() }
    }

    /// The sender, still there, gave the event up: its ticket is cancelled, now or as soon as
    /// it exists.
    func cancel() {
        let ticket = state.withLock { state in
            state.isCancelled = true
            return state.ticket
        }
        ticket?.cancel()
    }

    /// The outcome of the call's event, whose ticket is `ticket`; abandons the ticket if the
    /// caller gives the call up first (or gave it up already).
    func outcome(of ticket: Ticket) async -> Outcome {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { [givenUp] in
                // Cancelled once the outcome is known: nothing to abandon.
                guard (try? await givenUp.wait()) != nil else { return }
                await ticket.abandon()
            }
            let outcome = await ticket.outcome
            group.cancelAll()
            return outcome
        }
    }
}

/// Whether a server that runs a ``RemoteChainService`` has begun its graceful shutdown.
///
/// gRPC signals every call in flight as cancelled when a server begins to shut down gracefully
/// (the connections quiesce), although those calls are meant to finish. Once this is set, the
/// service does not cancel events when their calls are signalled: in-flight events run to their
/// outcome, as the entries' event system's own drain allows.
final class GracefulShutdownFlag: Sendable {
    private let isSet = Atomic(false)

    var hasBegun: Bool { isSet.load(ordering: .acquiring) }

    func set() {
        isSet.store(true, ordering: .releasing)
    }
}

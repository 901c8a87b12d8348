import ResponderChain
import Synchronization

/// One call a ``RemoteChainService`` serves: the ticket of the event it posted, and whether the
/// caller gave the call up.
///
/// gRPC tells a server that its caller went away (the caller cancelled, its connection dropped,
/// its process died) through the call's cancellation handle, not by cancelling the handler's
/// task; the cancellation may come before the event is even posted. Whichever comes second of
/// the ticket and the cancellation cancels the ticket, once.
final class RemoteCall: Sendable {
    private struct State {
        var ticket: Ticket?
        var isGivenUp = false
    }

    private let state = Mutex(State())

    /// Records the ticket of the call's event; cancels it at once if the caller gave up already.
    func attach(_ ticket: Ticket) {
        let givenUp = state.withLock { state in
            state.ticket = ticket
            return state.isGivenUp
        }
        if givenUp { ticket.cancel() }
    }

    /// The caller gave the call up: cancels the event's ticket, now or as soon as it exists.
    func giveUp() {
        let ticket = state.withLock { state in
            state.isGivenUp = true
            return state.ticket
        }
        ticket?.cancel()
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

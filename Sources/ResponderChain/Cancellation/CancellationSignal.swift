import Synchronization

/// A flag that stops one event before its next hop: set by a ``Ticket`` (or by a system's
/// shutdown) for a posted event, by the deadline timer for a send with a deadline, and by a
/// sender that withdraws its event (the window layer's pointer sequences). The system reads it
/// at every hop, and handlers read it through ``EventContext/isCancelled``.
///
/// The first reason given wins, so the outcome names the stop that actually came first.
@usableFromInline
package final class CancellationSignal: Sendable {
    /// Why the signal was set.
    package enum Reason: UInt8, Sendable {
        /// A ticket's ``Ticket/cancel()``.
        case ticket = 1
        /// The system's shutdown ended the event (``EventSystem/shutDown(gracePeriod:)``).
        case shutdown = 2
        /// The send's deadline passed (set by the deadline's timer before it cancels the route).
        case deadline = 3
        /// The sender withdrew the event (the window layer, when the pointer sequence of an
        /// event under way is cancelled).
        case withdrawn = 4
        /// A ticket's ``Ticket/abandon()``: cancelled as by ``ticket``, and dead-lettered, since
        /// whoever held the ticket is gone.
        case abandoned = 5
    }

    /// A signal that is not set.
    package init() {}

    private let state = Atomic<UInt8>(0)

    /// Whether the signal was set.
    package var isCancelled: Bool { state.load(ordering: .acquiring) != 0 }

    /// Why the signal was set, or `nil` if it was not.
    package var reason: Reason? { Reason(rawValue: state.load(ordering: .acquiring)) }

    /// Sets the signal; returns `true` if this call did it (it was not set before).
    @discardableResult
    package func cancel(_ reason: Reason) -> Bool {
        state.compareExchange(
            expected: 0, desired: reason.rawValue, ordering: .acquiringAndReleasing
        ).exchanged
    }
}

extension Outcome {
    /// Whether the outcome of a send whose signal is `signal` goes to dead letters.
    ///
    /// `signal` is a posted event's ticket, `nil` for an awaited or relayed send. An awaited send
    /// follows ``goesToDeadLetters``: its sender holds the outcome. A post goes there whenever it
    /// ends other than handled (nobody need be awaiting its ticket), with one exception: a post
    /// that its own ticket's ``Ticket/cancel()`` ended, since its holder asked for that and has
    /// the outcome on the ticket. A post whose ticket was abandoned (``Ticket/abandon()``) has no
    /// holder left, and goes there. A post its system's shutdown kept in the store for the next
    /// start is not lost, and does not go there.
    func goesToDeadLetters(signal: CancellationSignal?) -> Bool {
        guard let signal else { return goesToDeadLetters }
        switch self {
        case .handled: return false
        case .cancelled(let stop) where stop.reason == .ticketCancelled:
            return signal.reason == .abandoned
        case .cancelled(let stop) where stop.reason == .keptForNextStart:
            return false
        case .unhandled, .interrupted, .cycleDetected, .cancelled, .timedOut, .failed, .rejected:
            return true
        }
    }
}

extension Outcome.Stop.Reason {
    /// The outcome's name for the reason a signal was set.
    init(_ reason: CancellationSignal.Reason) {
        switch reason {
        case .ticket, .abandoned: self = .ticketCancelled
        case .shutdown: self = .shutdown
        case .deadline: self = .deadlinePassed
        case .withdrawn: self = .withdrawn
        }
    }
}

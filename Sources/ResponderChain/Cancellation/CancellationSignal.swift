import Synchronization

/// A flag that a ``Ticket`` sets to cancel a posted event; the router reads it before every hop
/// and handlers read it through ``EventContext/isCancelled``.
final class CancellationSignal: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// Whether ``cancel()`` was called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels; returns `true` if this call did it (it was not cancelled before).
    @discardableResult
    func cancel() -> Bool {
        !cancelled.exchange(true, ordering: .acquiringAndReleasing)
    }
}

import Synchronization

/// A flag that a ticket sets to cancel a posted event; the router reads it before every hop and
/// handlers read it through ``EventContext/isCancelled``.
public final class CancellationSignal: Sendable {
    private let cancelled = Atomic<Bool>(false)

    /// A signal that is not yet cancelled.
    public init() {}

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Cancels; returns `true` if this call did it (it was not cancelled before).
    @discardableResult
    public func cancel() -> Bool {
        !cancelled.exchange(true, ordering: .acquiringAndReleasing)
    }
}

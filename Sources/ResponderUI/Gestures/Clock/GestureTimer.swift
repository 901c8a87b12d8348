/// A call a ``GestureClock`` will make at a deadline; ``cancel()`` stops it.
///
/// A clock creates one per ``GestureClock/schedule(at:_:)`` and asks ``fire()`` at the deadline;
/// a cancelled timer's call is dropped, so a clock need not find and remove it.
@MainActor
public final class GestureTimer {
    /// When the timer is due, in its clock's time.
    public let deadline: Duration
    private var action: (@MainActor () -> Void)?
    private let onCancel: (@MainActor () -> Void)?

    /// A timer that calls `action` at `deadline`; `onCancel` lets its clock release what it holds
    /// for it (a sleeping task) when it is cancelled.
    public init(
        deadline: Duration, onCancel: (@MainActor () -> Void)? = nil,
        _ action: @escaping @MainActor () -> Void
    ) {
        self.deadline = deadline
        self.action = action
        self.onCancel = onCancel
    }

    /// Whether the timer still has a call to make: not fired, not cancelled.
    public var isPending: Bool { action != nil }

    /// Stops the timer: its call is never made. Does nothing once it fired.
    public func cancel() {
        guard action != nil else { return }
        action = nil
        onCancel?()
    }

    /// Makes the timer's call, once: called by its clock at the deadline. Does nothing when it
    /// was cancelled or already fired.
    public func fire() {
        guard let action else { return }
        self.action = nil
        action()
    }
}

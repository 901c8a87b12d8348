/// The unread elements and waiting consumers of one observation stream, as a pure state machine.
///
/// Each transition returns what its caller must resume once outside the lock; nothing here
/// resumes a task. ``ObservationSubscription`` is the storage that holds it in a `Locked` and
/// suspends consumers into ``consumers`` through ``Locked/wait(in:as:unless:cancelled:)``.
///
/// ```
///  receive ──▶ a consumer waits? ──yes──▶ hand it the element (resume it)
///                 │ no
///                 ▼
///              room in `unread`? ──yes──▶ append
///                 │ no
///                 ▼
///              drop the oldest unread and append (keepingNewest), or drop this one
///              (keepingOldest); count it
///
///  finish ──▶ finished: every waiting consumer resumes with `nil`; the unread elements are
///             still read, then `nil`; later elements are ignored
/// ```
package struct ObservationBufferState<Element> {
    /// The line of consumers suspended in `next()`.
    package typealias Consumers = WaitingLine<Void, CheckedContinuation<Element?, Never>>

    /// Consumers suspended in `next()`, resumed with an element, or `nil` at the end.
    package var consumers = Consumers()
    /// Elements received and not read yet, oldest first.
    private var unread = FIFOBuffer<Element>()
    /// The size and policy of ``unread``.
    package let buffering: ObservationBuffering
    /// Elements dropped because ``unread`` was full.
    package private(set) var dropped = 0
    /// Whether the stream has ended: its system shut down, or its consumer was cancelled.
    package private(set) var isFinished = false

    /// An empty stream buffering with `buffering`.
    package init(buffering: ObservationBuffering) {
        self.buffering = buffering
    }

    /// The number of elements received and not read yet.
    package var unreadCount: Int { unread.count }

    /// Takes in `element`: returns the consumer to resume with it, if one is waiting; otherwise
    /// keeps it (or drops an element, see ``ObservationBuffering/Policy``).
    package mutating func receive(_ element: Element) -> Consumers.Waiter? {
        guard !isFinished else { return nil }
        if let consumer = consumers.popFirst() { return consumer }
        if unread.count < buffering.capacity {
            unread.append(element)
            return nil
        }
        dropped += 1
        switch buffering.policy {
        case .dropOldest:
            _ = unread.popFirst()
            unread.append(element)
        case .dropNewest:
            break
        }
        return nil
    }

    /// What a consumer calling `next()` gets at once: the oldest unread element, `nil` (as
    /// `.some(nil)`) when the stream has finished and nothing is left, or `nil` to wait.
    package mutating func read() -> Element?? {
        if let element = unread.popFirst() { return .some(element) }
        return isFinished ? .some(nil) : nil
    }

    /// Ends the stream: returns the waiting consumers, to resume with `nil`. The unread
    /// elements stay readable. Finishing twice does nothing more.
    package mutating func finish() -> [Consumers.Waiter] {
        isFinished = true
        return consumers.removeAll()
    }
}

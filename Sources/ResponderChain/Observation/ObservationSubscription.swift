/// The storage of one observation stream: its ``ObservationBufferState`` under a lock, and the
/// resuming of the consumers that state hands back.
final class ObservationSubscription<Element: Sendable>: Sendable {
    let state: Locked<ObservationBufferState<Element>>

    init(buffering: ObservationBuffering) {
        state = Locked(ObservationBufferState(buffering: buffering))
    }

    /// The next element for a consumer: at once if one is unread, else once one arrives; `nil`
    /// when the stream has finished and nothing is left, or when the calling task is cancelled.
    nonisolated(nonsending) func next() async -> Element? {
        await state.wait(
            in: \ObservationBufferState<Element>.consumers, as: (), unless: { $0.read() },
            cancelled: .some(nil))
    }

    /// Ends the stream (see ``ObservationBufferState/finish()``) and resumes its waiting
    /// consumers with `nil`.
    func finish() {
        for consumer in state.withLock({ $0.finish() }) {
            consumer.continuation.resume(returning: nil)
        }
    }

    var droppedCount: Int { state.withLock { $0.dropped } }
    var unreadCount: Int { state.withLock { $0.unreadCount } }
}

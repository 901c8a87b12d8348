/// The end of one send with a deadline, for a scheduler that awaits its timers' work (a test
/// clock): the deadline's timer waits for it, so that the clock's `advance` returns only once
/// the timed-out send has published its outcome. Made only for such a scheduler (see
/// ``TimerScheduler/awaitsTimerWork``); a send on a real clock has none.
package final class SendEnding: Sendable {
    private enum State {
        case running([CheckedContinuation<Void, Never>])
        case ended
    }

    private let state = Locked(State.running([]))

    package init() {}

    /// Marks the send ended and wakes what waits for it; later calls do nothing.
    package func end() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard case .running(let waiting) = state else { return [] }
            state = .ended
            return waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    /// Returns once ``end()`` has been called; ignores cancellation (the send ends anyway).
    package func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ended = state.withLock { state -> Bool in
                guard case .running(var waiting) = state else { return true }
                waiting.append(continuation)
                state = .running(waiting)
                return false
            }
            if ended { continuation.resume() }
        }
    }
}

import Synchronization

/// The observation streams of one kind (outcomes, or dead letters) open on one event system, and
/// the one place elements are handed to them.
///
/// Publishing hands an element to every open stream under the registry's lock, so that every
/// stream receives the elements in one and the same order, whatever threads the sends finish on.
/// It never waits: a stream that is full drops an element (see ``ObservationBufferState``) and
/// the consumers it wakes are resumed after the lock is released.
final class ObserverRegistry<Element: Sendable>: Sendable {
    private struct State {
        var subscriptions: [ObservationSubscription<Element>] = []
        /// Set when the system's shutdown has finished: new streams start finished.
        var isClosed = false
    }

    private let state = Locked(State())
    /// The number of open streams, read without the lock on every send's ending.
    private let openCount = Atomic<Int>(0)

    init() {}

    /// Whether any stream is open: the one check an unobserved send pays.
    @inline(__always)
    var isObserved: Bool { openCount.load(ordering: .relaxed) != 0 }

    /// The number of open streams.
    var count: Int { openCount.load(ordering: .relaxed) }

    /// Opens a stream that receives every element published from now on (a finished one, if the
    /// registry is closed).
    func subscribe(buffering: ObservationBuffering) -> ObservationSubscription<Element> {
        let subscription = ObservationSubscription<Element>(buffering: buffering)
        let isClosed = state.withLock { state in
            guard !state.isClosed else { return true }
            state.subscriptions.append(subscription)
            openCount.add(1, ordering: .relaxed)
            return false
        }
        if isClosed { subscription.finish() }
        return subscription
    }

    /// Closes `subscription`'s stream: it receives nothing more, and its consumers end once they
    /// have read what it holds.
    func unsubscribe(_ subscription: ObservationSubscription<Element>) {
        state.withLock { state in
            guard let index = state.subscriptions.firstIndex(where: { $0 === subscription }) else { return }
            state.subscriptions.remove(at: index)
            openCount.subtract(1, ordering: .relaxed)
        }
        subscription.finish()
    }

    /// Hands `element` to every open stream.
    func publish(_ element: Element) {
        let woken = state.withLock { state in
            var woken: [CheckedContinuation<Element?, Never>] = []
            for subscription in state.subscriptions {
                if let consumer = subscription.state.withLock({ $0.receive(element) }) {
                    woken.append(consumer.continuation)
                }
            }
            return woken
        }
        for consumer in woken { consumer.resume(returning: element) }
    }

    /// Finishes every open stream and closes the registry: streams opened later start finished.
    func close() {
        let open = state.withLock { state in
            state.isClosed = true
            openCount.store(0, ordering: .relaxed)
            let open = state.subscriptions
            state.subscriptions = []
            return open
        }
        for subscription in open { subscription.finish() }
    }
}

import Synchronization

/// The observation streams of one kind (outcomes, or dead letters) on one event system: one
/// ``ObservationStateMachine`` per stream, all under one lock, the one place elements are handed
/// to them, and where their consumers wait (the machine keeps their continuations, and the
/// registry resumes what it hands back outside the lock, like every waiter in the package).
///
/// Publishing hands an element to every open stream under the lock, so that every stream
/// receives the elements in one and the same order, whatever threads the sends finish on. It
/// never waits: a full stream drops an element, and the consumers an element wakes are resumed
/// after the lock is released.
///
/// A stream stays here from ``open(buffering:)`` until ``remove(_:)`` (its last holder is gone),
/// so that a finished stream's unread elements stay readable; it is *open* (it receives
/// elements, and counts in ``count``) until it finishes.
final class ObserverRegistry<Element: Sendable>: Sendable {
    /// A consumer suspended in ``next(from:)``, resumed with an element, or `nil` at the end.
    typealias Consumer = CheckedContinuation<Element?, Never>
    /// One stream's buffer and waiting consumers.
    typealias Machine = ObservationStateMachine<Element, Consumer>

    /// The identity of one stream in its registry.
    struct StreamID: Hashable, Sendable {
        fileprivate let rawValue: UInt64
    }

    private struct State {
        var streams: [StreamID: Machine] = [:]
        var lastID: UInt64 = 0
        /// Set when the system's shutdown has finished: new streams start finished.
        var isClosed = false

        /// Runs `body` on every stream's machine, in place. (Looping over `streams.indices`
        /// would hold a second reference to the dictionary, so that the first change copied it
        /// and every buffer in it.)
        mutating func forEachStream(_ body: (inout Machine) -> Void) {
            var index = streams.values.startIndex
            while index != streams.values.endIndex {
                body(&streams.values[index])
                streams.values.formIndex(after: &index)
            }
        }
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
    func open(buffering: ObservationStream<Element>.Buffering) -> StreamID {
        state.withLock { state in
            state.lastID += 1
            let id = StreamID(rawValue: state.lastID)
            var machine = Machine(buffering: buffering)
            if state.isClosed {
                _ = machine.finish()
            } else {
                openCount.add(1, ordering: .relaxed)
            }
            state.streams[id] = machine
            return id
        }
    }

    /// Hands `element` to every open stream.
    func publish(_ element: Element) {
        let woken = state.withLock { state in
            var woken: [Consumer] = []
            state.forEachStream { stream in
                if let consumer = stream.receive(element) { woken.append(consumer.continuation) }
            }
            return woken
        }
        for consumer in woken { consumer.resume(returning: element) }
    }

    /// The next element of `stream`: at once if one is unread, otherwise once one arrives; `nil`
    /// when the stream has finished and nothing is left, or when the calling task is cancelled.
    ///
    /// The stream must still be in the registry (``remove(_:)`` runs only once nothing holds the
    /// stream, so no consumer of it can be waiting here): the waiting line is reached through it.
    nonisolated(nonsending) func next(from stream: StreamID) async -> Element? {
        let action = state.withLock { state -> Machine.NextAction in
            // A stream no longer here has ended: it has nothing more to read.
            guard state.streams[stream] != nil else { return .element(nil) }
            return state.streams[stream]!.next()
        }
        let id: WaiterID
        switch action {
        case .element(let element): return element
        case .mustWait(let waiter): id = waiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Consumer) in
                let action = state.withLock { state -> Machine.SuspendConsumerAction in
                    guard state.streams[stream] != nil else { return .resume(nil) }
                    return state.streams[stream]!.suspendConsumer(id, continuation: continuation)
                }
                if case .resume(let element) = action { continuation.resume(returning: element) }
            }
        } onCancel: {
            state.withLock { $0.streams[stream]?.cancelConsumer(id) }?.resume(returning: nil)
        }
    }

    /// Finishes `stream`: it receives nothing more, and its consumers end once they have read
    /// what it holds.
    func finish(_ stream: StreamID) {
        let action = state.withLock { state -> Machine.FinishAction in
            guard let action = state.streams[stream]?.finish() else { return .alreadyFinished }
            if case .finished = action { openCount.subtract(1, ordering: .relaxed) }
            return action
        }
        if case .finished(let consumers) = action {
            for consumer in consumers { consumer.continuation.resume(returning: nil) }
        }
    }

    /// Forgets `stream`, finishing it first: nobody can read it any longer.
    func remove(_ stream: StreamID) {
        finish(stream)
        // Released outside the lock: its unread elements hold events and their senders.
        let removed = state.withLock { $0.streams.removeValue(forKey: stream) }
        _ = removed
    }

    /// Finishes every open stream and closes the registry: streams opened later start finished.
    func close() {
        let woken = state.withLock { state in
            state.isClosed = true
            openCount.store(0, ordering: .relaxed)
            var woken: [Consumer] = []
            state.forEachStream { stream in
                if case .finished(let consumers) = stream.finish() {
                    woken.append(contentsOf: consumers.map(\.continuation))
                }
            }
            return woken
        }
        for consumer in woken { consumer.resume(returning: nil) }
    }

    /// The number of elements `stream` dropped because its buffer was full.
    func droppedCount(of stream: StreamID) -> Int {
        state.withLock { $0.streams[stream]?.droppedCount ?? 0 }
    }

    /// The number of elements `stream` received and nobody has read yet.
    func unreadCount(of stream: StreamID) -> Int {
        state.withLock { $0.streams[stream]?.unreadCount ?? 0 }
    }
}

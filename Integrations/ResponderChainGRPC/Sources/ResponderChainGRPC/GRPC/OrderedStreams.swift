import Synchronization

/// The ``OrderedStream``s of a ``GRPCRemoteTransport``, one per sender with posts under way, and
/// the line of streams waiting for the transport's ``GRPCRemoteTransport/run()`` to start them.
final class OrderedStreams: Sendable {
    private struct State {
        /// Each sender's stream that takes requests, or took them last.
        var streams: [RemoteSenderKey: OrderedStream] = [:]
        /// Every stream whose call has not ended (a sender's earlier ones may still be closing).
        var running: [ObjectIdentifier: OrderedStream] = [:]
        var isShutDown = false
    }

    private let state = Mutex(State())
    /// Hands a new stream to whatever runs it; called with its first request already placed.
    private let start: @Sendable (RemoteSenderKey, OrderedStream) -> Void
    private let starting: AsyncStream<(RemoteSenderKey, OrderedStream)>.Continuation
    /// The streams to start, in the order they were opened; finishes at ``shutDown()``.
    let starts: AsyncStream<(RemoteSenderKey, OrderedStream)>

    /// Streams started by whoever reads ``starts`` (the transport's ``GRPCRemoteTransport/run()``).
    convenience init() {
        let (starts, starting) = AsyncStream<(RemoteSenderKey, OrderedStream)>.makeStream()
        self.init(starts: starts, starting: starting) { starting.yield(($0, $1)) }
    }

    /// Streams handed to `start` as they open (for tests: a stream that ends at once), not to
    /// ``starts``, which stays empty.
    convenience init(start: @escaping @Sendable (RemoteSenderKey, OrderedStream) -> Void) {
        let (starts, starting) = AsyncStream<(RemoteSenderKey, OrderedStream)>.makeStream()
        self.init(starts: starts, starting: starting, start: start)
    }

    private init(
        starts: AsyncStream<(RemoteSenderKey, OrderedStream)>,
        starting: AsyncStream<(RemoteSenderKey, OrderedStream)>.Continuation,
        start: @escaping @Sendable (RemoteSenderKey, OrderedStream) -> Void
    ) {
        self.starts = starts
        self.starting = starting
        self.start = start
    }

    /// Places `request` on `sender`'s stream, opening one if it has none that takes requests.
    /// A new stream holds `request` before it is started, so that a stream that breaks at once
    /// fails it typed (its run may end before this returns).
    /// - Returns: The stream and the request's number there; `nil` once the transport is shut
    ///   down (nothing was sent).
    func place(_ request: [UInt8], for sender: RemoteSenderKey) -> (OrderedStream, UInt64)? {
        state.withLock { state in
            guard !state.isShutDown else { return nil }
            if let stream = state.streams[sender], let sequence = stream.place(request) {
                return (stream, sequence)
            }
            let stream = OrderedStream(first: request)
            state.streams[sender] = stream
            state.running[ObjectIdentifier(stream)] = stream
            start(sender, stream)
            return (stream, OrderedStream.firstSequence)
        }
    }

    /// Forgets `stream`, which has ended, unless `sender` has a newer one.
    func ended(_ stream: OrderedStream, of sender: RemoteSenderKey) {
        state.withLock { state in
            if state.streams[sender] === stream { state.streams[sender] = nil }
            state.running[ObjectIdentifier(stream)] = nil
        }
    }

    /// Opens no more streams and closes the open ones: each ends once the other side has
    /// answered what it has.
    func shutDown() {
        let open = state.withLock { state in
            state.isShutDown = true
            return Array(state.running.values)
        }
        starting.finish()
        for stream in open { stream.close() }
    }
}

import GRPCCore
import GRPCNIOTransportHTTP2
import Synchronization

/// One sender's requests, in order, on one `DeliverInOrder` stream of a ``GRPCRemoteTransport``.
///
/// Requests are numbered and written in the order ``place(_:)`` is called; each answer comes
/// back numbered. The stream opens with its first request and closes (half-closes, then ends once
/// the other side has answered) when it has no request left waiting for an answer: a sender that
/// posts again opens a new one. When the transport shuts down, its streams end as soon as nothing
/// waits on them, whether or not the other side has ended them. When the stream breaks, every request still waiting ends with
/// what the break means (``RemoteLinkError/unreachable(_:)`` when the call found no connection:
/// nothing of it was sent; ``RemoteLinkError/lost(_:)`` otherwise: it may have been delivered).
final class OrderedStream: Sendable {
    /// Where a request waiting for its answer stands.
    private enum Waiting {
        /// Written; its caller has not suspended yet.
        case placed
        /// Its caller waits here.
        case suspended(CheckedContinuation<RemoteReply, any Error>)
        /// Answered (or failed) before its caller suspended.
        case settled(Result<RemoteReply, any Error>)
    }

    private struct State {
        var lastSequence: UInt64 = 0
        var waiting: [UInt64: Waiting] = [:]
        /// Set when the stream takes no more requests: it is closing (nothing waits) or broke.
        var isClosed = false
        /// Set by ``close()`` (the transport shuts down): once nothing waits, the call is ended
        /// without waiting for the other side to end it.
        var mustEnd = false
    }

    private let state: Mutex<State>
    private let outgoing: AsyncStream<OrderedRequest>.Continuation
    private let frames: AsyncStream<OrderedRequest>
    /// Finishes once the transport has closed the stream and nothing waits on it: the call is
    /// then ended, whether or not the other side has ended it (a frozen peer never would).
    private let done: AsyncStream<Never>.Continuation
    private let whenDone: AsyncStream<Never>

    /// The number of a stream's first request.
    static let firstSequence: UInt64 = 1

    /// A stream whose first request, numbered ``firstSequence``, is `request`: placed before
    /// anything can run the stream, so that a stream that breaks at once (no connection, a
    /// server shutting down) still has it waiting, and fails it typed.
    init(first request: [UInt8]) {
        (frames, outgoing) = AsyncStream<OrderedRequest>.makeStream()
        (whenDone, done) = AsyncStream<Never>.makeStream()
        var first = State()
        first.lastSequence = Self.firstSequence
        first.waiting[Self.firstSequence] = .placed
        state = Mutex(first)
        outgoing.yield(OrderedRequest(sequence: Self.firstSequence, frame: .encodedRequest(request)))
    }

    /// Runs the stream's call until it ends; then fails every request still waiting with what
    /// `failure` makes of the call's error (a stream ended by this side's own shutdown, not by a
    /// caller, so a `cancelled` status is no caller's cancellation).
    /// `ended` is called once the stream takes no more requests (before they are failed).
    func run(
        on client: GRPCClient<HTTP2ClientTransport.Posix>, limiter: CallLimiter,
        failure: @Sendable (RPCError) -> any Error, ended: @Sendable () -> Void
    ) async {
        var ending: any Error = RemoteLinkError.lost("the stream ended before the answer")
        do {
            try await limiter.acquire()
            defer { limiter.release() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.call(on: client) }
                group.addTask { for await _ in self.whenDone {} }
                // Whichever ends first ends the other: the call, or the stream's last wait.
                defer { group.cancelAll() }
                try await group.next()
            }
        } catch let error as RPCError {
            ending = failure(error)
        } catch {
            ending = RemoteLinkError.lost("\(error)")
        }
        end(with: ending, ended: ended)
    }

    /// Takes no more requests and fails every request still waiting with `error`; `ended` is
    /// called in between. The end of ``run(on:limiter:failure:ended:)``, whatever ended the call.
    func end(with error: any Error, ended: () -> Void = {}) {
        let left = state.withLock { state in
            state.isClosed = true
            return state.waiting.keys.sorted()
        }
        outgoing.finish()
        done.finish()
        ended()
        for sequence in left { settle(sequence, with: .failure(error)) }
    }

    /// The `DeliverInOrder` call: writes the frames as they are placed, settles the answers as
    /// they come.
    private func call(on client: GRPCClient<HTTP2ClientTransport.Posix>) async throws {
        try await client.bidirectionalStreaming(
            request: StreamingClientRequest(of: OrderedRequest.self) { [frames] writer in
                for await frame in frames { try await writer.write(frame) }
            },
            descriptor: RemoteChainMethods.deliverInOrder,
            serializer: ProtobufMessageSerializer<OrderedRequest>(),
            deserializer: ProtobufMessageDeserializer<OrderedReply>(), options: .defaults
        ) { response in
            for try await answer in response.messages {
                self.settle(answer.sequence, with: .success(answer.reply))
            }
        }
    }

    /// Writes `request` behind the requests placed before it, unless the stream is closed.
    /// - Returns: Its number, or `nil` if the stream takes no more requests.
    func place(_ request: [UInt8]) -> UInt64? {
        state.withLock { state in
            guard !state.isClosed else { return nil }
            state.lastSequence += 1
            state.waiting[state.lastSequence] = .placed
            // Under the lock: frames go out in the order of their numbers.
            outgoing.yield(OrderedRequest(sequence: state.lastSequence, frame: .encodedRequest(request)))
            return state.lastSequence
        }
    }

    /// The answer to the request numbered `sequence`, if it comes within `timeout` of `clock`
    /// (the links' event system's); otherwise the request is given up and this throws
    /// ``RemoteLinkError/noAnswer(_:)``.
    func answer(
        to sequence: UInt64, within timeout: Duration, on clock: any Clock<Duration>
    ) async throws -> RemoteReply {
        try await withThrowingTaskGroup(of: RemoteReply?.self) { group in
            group.addTask { try await self.answer(to: sequence) }
            group.addTask {
                try await clock.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let reply = first else {
                throw RemoteLinkError.noAnswer("no answer on the stream within \(timeout)")
            }
            return reply
        }
    }

    /// The answer to the request numbered `sequence`. Cancelling the task gives the request up:
    /// the other side cancels its event's ticket, and this throws `CancellationError`.
    func answer(to sequence: UInt64) async throws -> RemoteReply {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let settled: Result<RemoteReply, any Error>? = state.withLock { state in
                    switch state.waiting[sequence] {
                    case .settled(let result):
                        state.waiting[sequence] = nil
                        closeIfIdle(&state)
                        return result
                    case .placed:
                        state.waiting[sequence] = .suspended(continuation)
                        return nil
                    case .suspended, nil:
                        // Only this side's own calls reach here: each placed number is awaited
                        // once, and an answer (from the peer, any number, any count) only ever
                        // settles a number that waits.
                        preconditionFailure("one answer per request")
                    }
                }
                if let settled { continuation.resume(with: settled) }
            }
        } onCancel: {
            let given: Bool = state.withLock { state in
                guard state.waiting[sequence] != nil, !state.isClosed else { return false }
                outgoing.yield(OrderedRequest(sequence: sequence, frame: .giveUp))
                return true
            }
            // The answer still comes (the event ends cancelled there); this side stops waiting.
            if given { settle(sequence, with: .failure(CancellationError())) }
        }
    }

    private func settle(_ sequence: UInt64, with result: Result<RemoteReply, any Error>) {
        let continuation: CheckedContinuation<RemoteReply, any Error>? = state.withLock { state in
            switch state.waiting[sequence] {
            case .placed:
                state.waiting[sequence] = .settled(result)
                return nil
            case .suspended(let continuation):
                state.waiting[sequence] = nil
                closeIfIdle(&state)
                return continuation
            case .settled, nil:
                return nil
            }
        }
        continuation?.resume(with: result)
    }

    /// Takes no more requests: the stream ends once the other side has answered those it has.
    func close() {
        let idle = state.withLock { state in
            state.isClosed = true
            state.mustEnd = true
            return state.waiting.isEmpty
        }
        outgoing.finish()
        if idle { done.finish() }
    }

    /// Closes the stream once nothing waits on it: the other side ends the call once it has
    /// answered everything it read. (Ending it here instead, with a reset, would be cheaper, but
    /// HTTP/2 servers count resets against a connection, and close one that resets many streams
    /// quickly.) After ``close()``, the call is ended here.
    private func closeIfIdle(_ state: inout State) {
        guard state.waiting.isEmpty else { return }
        state.isClosed = true
        outgoing.finish()
        if state.mustEnd { done.finish() }
    }
}

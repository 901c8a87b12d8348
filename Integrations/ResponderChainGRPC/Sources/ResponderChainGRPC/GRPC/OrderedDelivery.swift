import GRPCCore
import ResponderChain
import Synchronization

/// The serving side of one `DeliverInOrder` stream: the requests of one sender, posted at their
/// entries in the order they arrive, as one sender's posts, each answered with its outcome as it
/// ends.
///
/// The stream's requests are posted one after another (each waits for the posting limit's room,
/// which slows the stream, and so the sender, down); their outcomes are awaited side by side and
/// written back numbered. A give-up frame cancels its request's ticket. When gRPC signals the call
/// cancelled (the caller vanished), every ticket of the stream is cancelled, except during the
/// server's graceful shutdown, and for requests within ``RemoteChainService/deadlineMargin`` of
/// their deadline, as for one call. Requests that arrive once the server's graceful shutdown has
/// begun are refused (``RemoteRefusal/shuttingDown``), so that a busy stream cannot hold the
/// shutdown open; the stream ends when its sender has closed it and every answer is written.
struct OrderedDelivery {
    let entries: RemoteEntries
    let shutdown: GracefulShutdownFlag
    let maxRequestBytes: Int

    func serve(
        _ frames: RPCAsyncSequence<ReadFrame, any Error>, peer: String, writer: RPCWriter<OrderedReply>
    ) async throws {
        let calls = OrderedCalls()
        let (answers, answer) = AsyncStream<OrderedReply>.makeStream()
        try await withRPCCancellationHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask {
                    // A caller that went away cannot be written to; its events still end.
                    for await reply in answers { try? await writer.write(reply) }
                }
                defer { answer.finish() }
                try await withThrowingDiscardingTaskGroup { outcomes in
                    var senders: [String: Relay] = [:]
                    for try await frame in frames {
                        switch frame {
                        case .tooLarge(let sequence, let bytes):
                            answer.yield(
                                OrderedReply(
                                    sequence: sequence,
                                    reply: RemoteReply(
                                        body: .refused(.tooLarge(bytes: bytes, limit: maxRequestBytes)))))
                        case .malformed(let sequence?, let what):
                            answer.yield(
                                OrderedReply(
                                    sequence: sequence, reply: RemoteReply(body: .refused(.undecodable(what)))
                                ))
                        case .malformed(nil, let what):
                            throw RPCError(code: .invalidArgument, message: what)
                        case .frame(let frame):
                            switch frame.frame {
                            case .giveUp:
                                calls.giveUp(frame.sequence)
                            case .encodedRequest:
                                preconditionFailure("a frame read is never left encoded")
                            case .request(let request):
                                guard !shutdown.hasBegun else {
                                    answer.yield(
                                        OrderedReply(
                                            sequence: frame.sequence,
                                            reply: RemoteReply(body: .refused(.shuttingDown))))
                                    continue
                                }
                                let call = calls.add(frame.sequence, deadline: request.timeLeftNanoseconds)
                                switch await entries.accept(request, from: peer, senders: &senders) {
                                case .refused(let refusal):
                                    calls.remove(frame.sequence)
                                    answer.yield(
                                        OrderedReply(
                                            sequence: frame.sequence,
                                            reply: RemoteReply(body: .refused(refusal))))
                                case .posted(let ticket):
                                    call.attach(ticket)
                                    outcomes.addTask {
                                        // Not through a cancellation handler: a ticket is cancelled by its
                                        // sender's give-up, or the call's, never by this task's end.
                                        let outcome = await ticket.outcome
                                        calls.remove(frame.sequence)
                                        answer.yield(
                                            OrderedReply(
                                                sequence: frame.sequence,
                                                reply: RemoteReply(
                                                    body: .outcome(
                                                        WireOutcome(outcome, registry: entries.registry)))))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        } onCancelRPC: {
            guard !shutdown.hasBegun else { return }
            calls.giveUpAll(exceptWithin: RemoteChainService.deadlineMargin)
        }
    }

    /// A frame as the service reads it: decoded, too large to read, or unreadable, with the
    /// number it began with when that could be read.
    enum ReadFrame: Sendable {
        case frame(OrderedRequest)
        case tooLarge(sequence: UInt64, bytes: Int)
        case malformed(sequence: UInt64?, String)
    }

    /// Reads a frame of at most `limit` bytes; a larger one is answered by its number alone.
    struct FrameDeserializer: MessageDeserializer {
        let limit: Int

        func deserialize<Bytes: GRPCContiguousBytes>(_ serializedMessageBytes: Bytes) throws -> ReadFrame {
            serializedMessageBytes.withUnsafeBytes { buffer in
                let sequence = OrderedRequest.leadingSequence(of: buffer)
                guard buffer.count <= limit else {
                    guard let sequence else {
                        return .malformed(sequence: nil, "a frame of \(buffer.count) bytes")
                    }
                    return .tooLarge(sequence: sequence, bytes: buffer.count)
                }
                do {
                    return .frame(try OrderedRequest(serializedBytes: buffer))
                } catch {
                    return .malformed(sequence: sequence, "the request: \(error)")
                }
            }
        }
    }
}

/// The requests of one stream whose events are under way, by number: their calls, and their
/// deadlines.
final class OrderedCalls: Sendable {
    private let calls = Mutex<[UInt64: (call: RemoteCall, deadline: ContinuousClock.Instant?)]>([:])

    /// Records a request's call; `timeLeft` is its time before its deadline, in nanoseconds.
    func add(_ sequence: UInt64, deadline timeLeft: Int64?) -> RemoteCall {
        let call = RemoteCall()
        let deadline = timeLeft.map { ContinuousClock.now + .nanoseconds(max(0, $0)) }
        calls.withLock { $0[sequence] = (call, deadline) }
        return call
    }

    func remove(_ sequence: UInt64) {
        _ = calls.withLock { $0.removeValue(forKey: sequence) }
    }

    /// The sender gave this request up.
    func giveUp(_ sequence: UInt64) {
        calls.withLock { $0[sequence] }?.call.giveUp()
    }

    /// The whole stream was given up: every request's call is, but those whose deadline is
    /// nearer than `margin` (their events end timed out by their own deadlines).
    func giveUpAll(exceptWithin margin: Duration) {
        let now = ContinuousClock.now
        let given = calls.withLock { calls in
            calls.values.filter { entry in entry.deadline.map { now < $0 - margin } ?? true }.map(\.call)
        }
        for call in given { call.giveUp() }
    }
}

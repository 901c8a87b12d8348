import GRPCCore
import ResponderChain
import Synchronization

/// The serving side of one `DeliverInOrder` stream: the requests of one sender, posted at their
/// entries in the order they arrive, as one sender's posts, each answered with its outcome as it
/// ends.
///
/// The stream's requests are posted one after another (each waits for the posting limit's room,
/// which slows the stream, and so the sender, down); their outcomes are awaited side by side and
/// written back numbered. A give-up frame cancels its request's ticket (the sender is there, and
/// gets the outcome: not dead-lettered). When gRPC signals the call cancelled (the caller
/// vanished), every ticket of the stream is abandoned (cancelled and dead-lettered here, since
/// nobody else will see those events), except during the
/// server's graceful shutdown, and for requests within ``RemoteChainService/deadlineMargin`` of
/// their deadline, as for one call. Requests that arrive once the server's graceful shutdown has
/// begun are refused (``RemoteRefusal/shuttingDown``), so that a busy stream cannot hold the
/// shutdown open; the stream ends when its sender has closed it and every answer is written.
///
/// Requests are numbered 1, 2, 3, … per stream; a request under any other number is refused
/// on its frame (``RemoteRefusal/outOfSequence(expected:got:)``), and a give-up frame that names
/// no request under way is ignored. A stream that breaks (a frame that cannot be read far enough
/// to answer it, a failed read) gives up every request of it under way, as a cancelled call does.
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
                    var numbers = SequenceCheck()
                    // A stream that breaks while events of it are under way (its frames fail, or
                    // cannot be told apart) gives them up: nobody is left to give them up.
                    do {
                        for try await frame in frames {
                            switch frame {
                            case .tooLarge(let sequence, let bytes):
                                answer.yield(
                                    Self.refusing(
                                        sequence,
                                        numbers.check(sequence)
                                            ?? .tooLarge(bytes: bytes, limit: maxRequestBytes), version: nil))
                            case .malformed(let sequence?, let what):
                                answer.yield(
                                    Self.refusing(
                                        sequence, numbers.check(sequence) ?? .undecodable(what), version: nil)
                                )
                            case .malformed(nil, let what):
                                throw RPCError(code: .invalidArgument, message: what)
                            case .frame(let frame):
                                switch frame.frame {
                                case .giveUp:
                                    // A number never seen, or already answered, names no call.
                                    calls.giveUp(frame.sequence)
                                case .encodedRequest:
                                    // This side's reader never makes one (it is the sender's).
                                    preconditionFailure("a frame read is never left encoded")
                                case .request(let request):
                                    // The number first: a request refused for the shutdown still took it.
                                    if let refusal = numbers.check(frame.sequence)
                                        ?? (shutdown.hasBegun ? .shuttingDown : nil)
                                    {
                                        answer.yield(
                                            Self.refusing(frame.sequence, refusal, version: request.version))
                                        continue
                                    }
                                    let call = calls.add(
                                        frame.sequence, deadline: request.timeLeftNanoseconds,
                                        now: entries.eventSystem.now)
                                    switch await entries.accept(request, from: peer, senders: &senders) {
                                    case .refused(let refusal):
                                        calls.remove(frame.sequence)
                                        answer.yield(
                                            Self.refusing(frame.sequence, refusal, version: request.version))
                                    case .posted(let ticket):
                                        call.attach(ticket)
                                        outcomes.addTask {
                                            // Not through a cancellation handler: a ticket is cancelled by
                                            // its sender's give-up, or abandoned by the call's, never by
                                            // this task's end.
                                            let outcome = await call.outcome(of: ticket)
                                            calls.remove(frame.sequence)
                                            answer.yield(
                                                OrderedReply(
                                                    sequence: frame.sequence,
                                                    reply: RemoteReply(
                                                        answering: request.version,
                                                        .outcome(
                                                            WireOutcome(outcome, registry: entries.registry)))
                                                ))
                                        }
                                    }
                                }
                            }
                        }
                    } catch {
                        if !shutdown.hasBegun {
                            calls.giveUpAll(
                                exceptWithin: RemoteChainService.deadlineMargin, now: entries.eventSystem.now)
                        }
                        throw error
                    }
                }
            }
        } onCancelRPC: {
            guard !shutdown.hasBegun else { return }
            calls.giveUpAll(
                exceptWithin: RemoteChainService.deadlineMargin, now: entries.eventSystem.now)
        }
    }

    /// The answer to the request numbered `sequence`, of wire format `version`: refused for
    /// `refusal`.
    private static func refusing(_ sequence: UInt64, _ refusal: RemoteRefusal, version: Int?) -> OrderedReply
    {
        OrderedReply(sequence: sequence, reply: RemoteReply(answering: version, .refused(refusal)))
    }

    /// The numbers of a stream's requests: 1, 2, 3, … in the order they arrive. A request frame
    /// with any other number is refused on that frame
    /// (``RemoteRefusal/outOfSequence(expected:got:)``), and the next one is still expected: two
    /// requests under one number could not be told apart, neither their answers nor their
    /// give-ups.
    struct SequenceCheck {
        private(set) var expected = OrderedStream.firstSequence

        /// Takes `sequence` as the next request's number; returns the refusal for a number
        /// other than the expected one (which is then still expected).
        mutating func check(_ sequence: UInt64) -> RemoteRefusal? {
            guard sequence == expected else { return .outOfSequence(expected: expected, got: sequence) }
            expected += 1
            return nil
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
    private let calls = Mutex<[UInt64: (call: RemoteCall, deadline: EventSystem.Instant?)]>([:])

    /// Records a request's call, arrived at `now` (on the entries' system's clock); `timeLeft` is
    /// its time before its deadline, in nanoseconds.
    func add(_ sequence: UInt64, deadline timeLeft: Int64?, now: EventSystem.Instant) -> RemoteCall {
        let call = RemoteCall()
        let deadline = timeLeft.map { now + .nanoseconds(max(0, $0)) }
        calls.withLock { $0[sequence] = (call, deadline) }
        return call
    }

    func remove(_ sequence: UInt64) {
        _ = calls.withLock { $0.removeValue(forKey: sequence) }
    }

    /// The sender gave this request up (its event is cancelled, as by its sender).
    func giveUp(_ sequence: UInt64) {
        calls.withLock { $0[sequence] }?.call.cancel()
    }

    /// The whole stream was given up (its sender went away): every request's call is, and its
    /// event abandoned, but those whose deadline is nearer than `margin` (their events end timed
    /// out by their own deadlines), at `now` on the clock of the deadlines.
    func giveUpAll(exceptWithin margin: Duration, now: EventSystem.Instant) {
        let given = calls.withLock { calls in
            calls.values.filter { entry in entry.deadline.map { now < $0 - margin } ?? true }.map(\.call)
        }
        for call in given { call.giveUp() }
    }
}

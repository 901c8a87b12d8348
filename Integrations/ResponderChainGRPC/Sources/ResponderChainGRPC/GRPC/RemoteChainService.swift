public import GRPCCore
import ResponderChain

/// The gRPC service that exposes a process's ``RemoteEntries`` to other processes' links
/// (``GRPCRemoteTransport``): add it to a `GRPCServer` of your own, or run a
/// ``RemoteChainServer``.
///
/// ```swift
/// let server = GRPCServer(
///     transport: .http2NIOPosix(address: .ipv4(host: "0.0.0.0", port: 9_000), transportSecurity: .plaintext),
///     services: [RemoteChainService(entries: entries)])
/// try await server.serve()
/// ```
///
/// Each call is one event. When the caller gives the call up (it cancelled the send, its
/// connection dropped, its process died), gRPC signals the call cancelled and the event's ticket
/// is abandoned here (`Ticket.abandon()`): a handler parked on the event is woken, and the event
/// ends `cancelled` (``Outcome/Stop/Reason/ticketCancelled``) on this side, dead-lettered here,
/// since nobody else will ever see it (gRPC does not tell a caller that cancelled from one that
/// went away). A call past the deadline it came with
/// is left to the event's own timeout, which ends it `timedOut` here: a cancellation that
/// arrives less than ``deadlineMargin`` before that deadline is taken as the deadline's (the
/// caller's link gives the call up at the same deadline, and its signal can arrive first).
///
/// **The call's deadline is the event's** when the request carries no time left (a client of
/// another language sets only gRPC's `timeout`), or when it is sooner: the event is posted with
/// the time left before the call's deadline (`grpc-timeout`), and ends `timedOut` here when it
/// passes. On a `DeliverInOrder` stream, the stream's deadline is so for each of its events.
/// Every deadline here is read on the clock of the entries' event system
/// (``RemoteEntries/eventSystem``), the clock the events' own deadlines count on.
///
/// **A `GRPCServer` of your own** must let its transport read requests of at least 4 MiB (gRPC's
/// default) and at least ``maxRequestBytes`` (`maxRequestPayloadSize`), so that the service sees
/// and refuses by name what is over its limit (a link sends up to 4 MiB before it knows the
/// limit), and permit the links' keepalive pings with and without calls
/// (`keepalive.clientBehavior`), as a ``RemoteChainServer`` does.
///
/// **Graceful shutdown.** gRPC also signals every call in flight as cancelled when the server
/// begins a graceful shutdown, although those calls are meant to finish. Call this service's
/// ``beginGracefulShutdown()`` first, then the server's: the events under way then run to their
/// outcome, which goes back to their callers. A ``RemoteChainServer`` does both.
///
/// ```swift
/// let service = RemoteChainService(entries: entries)
/// let server = GRPCServer(transport: transport, services: [service])
/// // …
/// service.beginGracefulShutdown()
/// server.beginGracefulShutdown()
/// ```
public struct RemoteChainService: RegistrableRPCService {
    /// The entries the service exposes.
    public let entries: RemoteEntries
    private let shutdown = GracefulShutdownFlag()

    /// How close to a call's deadline a cancellation is taken as the deadline's, left to the
    /// event's own timeout, which ends it within that time: 1 s. (The two sides' deadlines are
    /// the same on their own clocks, the other side's later by the request's transit and
    /// reading, so a give-up at the deadline can arrive before this side's deadline.)
    public static var deadlineMargin: Duration { .seconds(1) }

    /// The largest request the service reads, encoded, by default: 4 MiB, gRPC's default limit.
    public static var defaultMaxRequestBytes: Int { 4 * 1_024 * 1_024 }

    /// The largest request the service reads; a larger one is refused
    /// (``RemoteRefusal/tooLarge(bytes:limit:)``) without being read. The server's transport
    /// must accept requests at least this large (`maxRequestPayloadSize`; a `RemoteChainServer`
    /// sets it), or gRPC resets larger ones before the service sees them. Every answer names it
    /// in its metadata (``requestLimitKey``), so that a ``GRPCRemoteTransport`` learns it and
    /// refuses larger requests before sending them.
    public let maxRequestBytes: Int

    /// The metadata key under which every answer of the service (its initial metadata, on each
    /// method) names ``maxRequestBytes``, in decimal: `responderchain-max-request-bytes`.
    public static var requestLimitKey: String { "responderchain-max-request-bytes" }

    /// A service for `entries` that reads requests of at most `maxRequestBytes`.
    public init(entries: RemoteEntries, maxRequestBytes: Int = Self.defaultMaxRequestBytes) {
        self.entries = entries
        self.maxRequestBytes = maxRequestBytes
    }

    /// Marks the server's graceful shutdown as begun, before the server's own
    /// `beginGracefulShutdown()`: calls gRPC signals as cancelled from now on are let finish.
    public func beginGracefulShutdown() {
        shutdown.set()
    }

    /// The initial metadata of every answer: the request limit.
    private var answerMetadata: Metadata {
        var metadata = Metadata()
        metadata.addString(String(maxRequestBytes), forKey: Self.requestLimitKey)
        return metadata
    }

    /// Registers the service's methods.
    public func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        let metadata = answerMetadata
        router.registerHandler(
            forMethod: RemoteChainMethods.deliver,
            deserializer: SizedMessageDeserializer<RemoteRequest>(limit: maxRequestBytes),
            serializer: ProtobufMessageSerializer<RemoteReply>()
        ) { [entries, shutdown, maxRequestBytes] request, context in
            let system = entries.eventSystem
            let callDeadline = CallDeadline(request.metadata, now: system.now)
            var message: RemoteRequest
            switch try await ServerRequest(stream: request).message {
            case .message(let read):
                message = read
                if let callDeadline {
                    message.timeLeftNanoseconds = callDeadline.timeLeftNanoseconds(
                        message.timeLeftNanoseconds, now: system.now)
                }
            case .tooLarge(let bytes):
                let refusal = RemoteReply(
                    answering: nil, .refused(.tooLarge(bytes: bytes, limit: maxRequestBytes)))
                return StreamingServerResponse(single: ServerResponse(message: refusal, metadata: metadata))
            case .malformed(let what):
                return StreamingServerResponse(
                    single: ServerResponse(
                        message: RemoteReply(answering: nil, .refused(.undecodable(what))), metadata: metadata
                    ))
            }
            let call = RemoteCall()
            let deadline = message.timeLeftNanoseconds.map { system.now + .nanoseconds(max(0, $0)) }
            let reply = await withRPCCancellationHandler {
                await entries.reply(to: message, from: context.remotePeer, call: call)
            } onCancelRPC: {
                // A shutdown's signal lets the call finish; a deadline's leaves the event to its
                // own timeout, so that it ends timed out, not cancelled.
                guard !shutdown.hasBegun else { return }
                if let deadline, system.now >= deadline - Self.deadlineMargin { return }
                call.giveUp()
            }
            return StreamingServerResponse(single: ServerResponse(message: reply, metadata: metadata))
        }
        let ordered = OrderedDelivery(entries: entries, shutdown: shutdown, maxRequestBytes: maxRequestBytes)
        router.registerHandler(
            forMethod: RemoteChainMethods.deliverInOrder,
            deserializer: OrderedDelivery.FrameDeserializer(limit: maxRequestBytes),
            serializer: ProtobufMessageSerializer<OrderedReply>()
        ) { [entries] request, context in
            // The stream's deadline is each of its events' deadline when the event has none
            // (or a later one): an event cannot be answered once its stream has ended.
            let system = entries.eventSystem
            let callDeadline = CallDeadline(request.metadata, now: system.now)
            let frames = RPCAsyncSequence(
                wrapping: request.messages.map { read in
                    guard let callDeadline, case .frame(var frame) = read,
                        case .request(var message) = frame.frame
                    else { return read }
                    message.timeLeftNanoseconds = callDeadline.timeLeftNanoseconds(
                        message.timeLeftNanoseconds, now: system.now)
                    frame.frame = .request(message)
                    return .frame(frame)
                })
            return StreamingServerResponse(metadata: metadata) { writer in
                try await ordered.serve(frames, peer: context.remotePeer, writer: writer)
                return [:]
            }
        }
        router.registerHandler(
            forMethod: RemoteChainMethods.registryNames,
            deserializer: ProtobufMessageDeserializer<EmptyMessage>(),
            serializer: ProtobufMessageSerializer<RemoteRegistryNames>()
        ) { [entries] _, _ in
            StreamingServerResponse(
                single: ServerResponse(message: entries.registry.names, metadata: metadata))
        }
    }
}

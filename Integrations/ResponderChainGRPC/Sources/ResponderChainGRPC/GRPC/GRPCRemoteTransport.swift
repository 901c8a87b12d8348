import GRPCCore
import GRPCNIOTransportHTTP2
public import ResponderChain
public import ServiceLifecycle

/// A transport to another process's ``RemoteChainService`` over gRPC (HTTP/2, plaintext):
/// each awaited send is one unary call, and a sender's posts go, in order, on a stream of their
/// own (``streamsPosts``).
///
/// The transport owns a `GRPCClient`; run it for as long as links use it, alone or as a
/// swift-service-lifecycle `Service` (its graceful shutdown is ``shutDown()``):
///
/// ```swift
/// let transport = try GRPCRemoteTransport(host: "127.0.0.1", port: 9_000)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await transport.run() }
///     let link = RemoteLink(entry: "orders", transport: transport, registry: registry)
///     …
///     transport.shutDown()
/// }
/// ```
///
/// A call that found no connection to go out on, or a method the other side does not serve,
/// reports ``RemoteLinkError/unreachable(_:)`` (nothing was sent, or nothing ran there); one past
/// its deadline, ``RemoteLinkError/noAnswer(_:)``; one this side cancelled, `CancellationError`;
/// any other failure, a `CANCELLED` from the other side or a proxy included,
/// ``RemoteLinkError/lost(_:)`` (it may have been delivered). A call
/// carries the send's deadline, plus `deadlineGrace`, so that gRPC never ends a call before the
/// send's own deadline does (at the deadline the send ends `timedOut` at the link, and the event
/// on the other side ends `timedOut` there by its own deadline).
///
/// **Calls in flight are capped.** At most `maxCallsInFlight` events (100 by default) are in
/// flight through one transport at once; the others wait in this process, first come first
/// served (HTTP/2 lets a peer refuse more streams than it allows, and a client that opens more
/// spends its time in its stream buffers). A send cancelled, or past its deadline, while it
/// waits leaves the line and ends as any stopped send.
///
/// **A frozen or dead peer is noticed.** HTTP/2 keepalive pings (every `keepaliveInterval`, 10 s
/// by default, whether calls are open or not) close a connection whose peer does not answer one
/// within `keepaliveTimeout` (5 s by default): the calls and streams under way on it end
/// ``RemoteLinkError/lost(_:)`` (they may have run there) within `keepaliveInterval` +
/// `keepaliveTimeout` (15 s by default) of the peer's freezing. A call whose send has no
/// deadline waits at most `answerTimeout` (30 s by default) for its answer, then ends
/// ``RemoteLinkError/noAnswer(_:)``: so does a call made once the connection is closed, which
/// waits for a new one that a frozen peer never completes. The other side must permit pings that
/// often, with or without calls (a ``RemoteChainServer`` permits one a second).
///
/// **Requests too large for the other side are not sent.** Every answer of a
/// ``RemoteChainService`` names its request limit (``RemoteChainService/requestLimitKey``); the
/// transport remembers the last one named, and a request over it ends the send failed at the link
/// (``RemoteLinkError/tooLarge(bytes:limit:)``, with that limit), nothing sent. Before the first
/// answer (``RemoteLink/checkRegistry()`` at start-up reads one), a request over 4 MiB, what
/// every gRPC server reads by default, first asks the other side for its limit.
///
/// **Its waits read the event system's clock** (``eventSystem``, the links' system): the wait for
/// a post's answer on its stream ends at the send's time left plus `deadlineGrace`, or
/// `answerTimeout`, on that clock. (A unary call's deadline is gRPC's, carried on the wire as
/// the time left.)
public final class GRPCRemoteTransport: RemoteTransport, Service {
    private let client: GRPCClient<HTTP2ClientTransport.Posix>
    /// Added to a send's time left for the call's own deadline.
    public let deadlineGrace: Duration
    /// The longest a call whose send has no deadline waits for its answer.
    public let answerTimeout: Duration
    /// The event system of the links the transport serves: its clock times the waits for
    /// answers on the posts' streams.
    public let eventSystem: EventSystem
    /// The largest request, encoded, that the transport sends; a larger one ends the send failed
    /// at the link (``RemoteLinkError/tooLarge(bytes:limit:)``) and nothing is sent. So does one
    /// over the other side's `maxRequestBytes`, once an answer has named it.
    public let maxRequestBytes: Int
    private let limiter: CallLimiter
    /// Whether a sender's posts are carried in order on a stream of their own.
    public let streamsPosts: Bool
    private let orderedStreams = OrderedStreams()
    /// The other side's request limit, as its answers name it.
    private let peerLimit = PeerRequestLimit()

    /// How long the other side has to answer a keepalive ping before the connection is closed:
    /// the `keepaliveTimeout` given, but at most half the keepalive interval
    /// (grpc-swift-nio-transport 2.9 restarts the wait for an answer at each ping, so a timeout as
    /// long as the interval would never expire).
    public let keepaliveTimeout: Duration

    /// The largest request sent without knowing the other side's limit: 4 MiB, what every gRPC
    /// server reads by default (a ``RemoteChainServer`` reads at least that much, and refuses by
    /// name what is over its own limit). A larger one is sent only once the limit is known.
    static var requestsSentUnasked: Int { 4 * 1_024 * 1_024 }

    /// A transport to `host`:`port`: an IPv4 address, or a name, resolved through DNS (the
    /// system's resolver) by grpc-swift, whose connection goes to the first address that answers.
    /// `system` is the links' event system, whose clock times the waits for answers.
    ///
    /// - Throws: What the gRPC transport throws for an address it cannot use; `RPCError`
    ///   (`invalidArgument`) when `maxCallsInFlight` is less than 1.
    public convenience init(
        host: String, port: Int, deadlineGrace: Duration = .milliseconds(250),
        answerTimeout: Duration = .seconds(30), keepaliveInterval: Duration? = .seconds(10),
        keepaliveTimeout: Duration = .seconds(5),
        maxRequestBytes: Int = RemoteChainService.defaultMaxRequestBytes, maxCallsInFlight: Int = 100,
        streamsPosts: Bool = true, system: EventSystem = .default
    ) throws {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        let isIPv4 = octets.count == 4 && octets.allSatisfy { UInt8($0) != nil }
        let target: any ResolvableTarget =
            isIPv4 ? .ipv4(address: host, port: port) : .dns(host: host, port: port)
        try self.init(
            target: target, deadlineGrace: deadlineGrace,
            answerTimeout: answerTimeout, keepaliveInterval: keepaliveInterval,
            keepaliveTimeout: keepaliveTimeout,
            maxRequestBytes: maxRequestBytes, maxCallsInFlight: maxCallsInFlight, streamsPosts: streamsPosts,
            system: system)
    }

    /// A transport to `target` (one backend: ``GRPCMultiBackendTransport`` makes one per
    /// address it resolves).
    init(
        target: any ResolvableTarget, deadlineGrace: Duration, answerTimeout: Duration,
        keepaliveInterval: Duration?, keepaliveTimeout: Duration = .seconds(5), maxRequestBytes: Int,
        maxCallsInFlight: Int, streamsPosts: Bool, system: EventSystem
    ) throws {
        try CallLimiter.checkLimit(maxCallsInFlight)
        let keepaliveTimeout = keepaliveInterval.map { min(keepaliveTimeout, $0 / 2) } ?? keepaliveTimeout
        var config = HTTP2ClientTransport.Posix.Config.defaults
        // Pings also while no call is open: grpc-swift-nio-transport (2.9) stops a connection's
        // keepalive timer when its last call ends and starts it again only when a ping is
        // answered, so without them a connection that was once idle never pings again, and a
        // frozen peer's calls wait for their timeouts. A `RemoteChainServer` permits them.
        config.connection.keepalive = keepaliveInterval.map {
            HTTP2ClientTransport.Config.Keepalive(
                time: $0, timeout: keepaliveTimeout, allowWithoutCalls: true)
        }
        self.keepaliveTimeout = keepaliveTimeout
        self.client = GRPCClient(
            transport: try .http2NIOPosix(
                target: target, transportSecurity: .plaintext, config: config))
        self.deadlineGrace = deadlineGrace
        self.answerTimeout = answerTimeout
        self.maxRequestBytes = maxRequestBytes
        self.limiter = CallLimiter(limit: maxCallsInFlight)
        self.streamsPosts = streamsPosts
        self.eventSystem = system
    }

    /// The most events this transport has in flight at once; the others wait here, first come
    /// first served, until one ends.
    public var maxCallsInFlight: Int { limiter.limit }

    /// Runs the connections until ``shutDown()``, or until the graceful shutdown of the
    /// `ServiceGroup` it runs in.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await self.client.runConnections() }
                for await (sender, stream) in orderedStreams.starts {
                    group.addTask {
                        await stream.run(
                            on: self.client, limiter: self.limiter,
                            failure: { Self.linkError($0, callerCancelled: false) }
                        ) {
                            self.orderedStreams.ended(stream, of: sender)
                        }
                    }
                }
            }
        } onGracefulShutdown: {
            self.shutDown()
        }
    }

    /// Lets the calls and streams under way finish, then stops ``run()``.
    public func shutDown() {
        orderedStreams.shutDown()
        client.beginGracefulShutdown()
    }

    /// Delivers `request` in one unary call.
    public func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        var options = CallOptions.defaults
        if let left = request.timeLeftNanoseconds {
            options.timeout = .nanoseconds(max(0, left)) + deadlineGrace
        } else {
            options.timeout = answerTimeout
        }
        let encoded = EncodedMessage(encoding: request)
        try await checkSize(of: encoded)
        try await limiter.acquire()
        defer { limiter.release() }
        return try await unary(
            encoded, RemoteChainMethods.deliver, serializer: EncodedMessageSerializer(),
            deserializer: ProtobufMessageDeserializer<RemoteReply>(), options: options)
    }

    /// Delivers `request`: a post of `sender` (`placed` given) on that sender's stream, behind its
    /// earlier posts, calling `placed` once it is written there, so that the sender's next post
    /// may go while this one waits for its outcome (``streamsPosts``); any other request in one
    /// unary call, as ``deliver(_:)``.
    ///
    /// One stream per sender with posts under way: it opens with the sender's first post and
    /// closes when none of its posts waits for an answer. A stream takes one of the
    /// `maxCallsInFlight` places while it is open. When a stream breaks, each of its posts still
    /// waiting ends as a unary call would: ``RemoteLinkError/unreachable(_:)`` when the stream
    /// found no connection (nothing was sent), ``RemoteLinkError/lost(_:)`` otherwise.
    public func deliver(_ request: RemoteRequest, sender: RemoteSenderKey, placed: (() -> Void)?) async throws
        -> RemoteReply
    {
        guard streamsPosts, let placed else { return try await deliver(request) }
        let encoded = EncodedMessage(encoding: request)
        try await checkSize(of: encoded)
        guard let (stream, sequence) = orderedStreams.place(encoded.bytes, for: sender) else {
            throw RemoteLinkError.unreachable("the transport has shut down: nothing was sent")
        }
        placed()
        let timeout =
            request.timeLeftNanoseconds.map { .nanoseconds(max(0, $0)) + deadlineGrace } ?? answerTimeout
        return try await stream.answer(to: sequence, within: timeout, on: eventSystem.clock)
    }

    /// The other process's registered names.
    public func registryNames() async throws -> RemoteRegistryNames {
        try await unary(
            EmptyMessage(), RemoteChainMethods.registryNames,
            serializer: ProtobufMessageSerializer<EmptyMessage>(),
            deserializer: ProtobufMessageDeserializer<RemoteRegistryNames>(), options: .defaults)
    }

    /// One unary call of `method` with `message`: the peer's request limit is learnt from its
    /// answer's metadata, and a gRPC error becomes the link's (``RemoteLinkError``).
    private func unary<Input: Sendable, Output: Sendable>(
        _ message: Input,
        _ method: MethodDescriptor,
        serializer: some MessageSerializer<Input>,
        deserializer: some MessageDeserializer<Output>,
        options: CallOptions
    ) async throws -> Output {
        do {
            return try await client.unary(
                request: ClientRequest(message: message), descriptor: method, serializer: serializer,
                deserializer: deserializer, options: options
            ) { [peerLimit] response in
                if case .success(let contents) = response.accepted {
                    peerLimit.learn(from: contents.metadata)
                }
                return try response.message
            }
        } catch let error as RPCError {
            throw Self.linkError(error, callerCancelled: Task.isCancelled)
        }
    }

    /// Throws ``RemoteLinkError/tooLarge(bytes:limit:)`` for a request over this transport's
    /// limit or the other side's; asks the other side for its limit first when the request is
    /// larger than ``requestsSentUnasked`` and no answer has named it yet.
    private func checkSize(of encoded: EncodedMessage) async throws {
        let bytes = encoded.bytes.count
        guard bytes <= maxRequestBytes else {
            throw RemoteLinkError.tooLarge(bytes: bytes, limit: maxRequestBytes)
        }
        if bytes > Self.requestsSentUnasked, peerLimit.current == .unknown {
            // Its answer names the limit; if it fails, so will the request, which reports why.
            _ = try? await registryNames()
        }
        if case .named(let limit) = peerLimit.current, bytes > limit {
            throw RemoteLinkError.tooLarge(bytes: bytes, limit: limit)
        }
    }

    /// What a failed call means for the link: the one mapping of gRPC status codes to the
    /// failure table, for unary calls and streams, over one backend or several.
    ///
    /// - `unavailable` with grpc-swift's wording for a missing connection: ``RemoteLinkError/unreachable(_:)``
    ///   (nothing was sent).
    /// - `unimplemented`: ``RemoteLinkError/unreachable(_:)``: the other side does not serve the
    ///   method, so no handler of it ran there (gRPC answers it before reading the request).
    /// - `deadlineExceeded`: ``RemoteLinkError/noAnswer(_:)``.
    /// - `cancelled` when `callerCancelled` (this side's task was cancelled): `CancellationError`;
    ///   otherwise the other side, or a proxy between, ended the call: ``RemoteLinkError/lost(_:)``.
    /// - Any other code (`unknown`, `invalidArgument`, `notFound`, `alreadyExists`,
    ///   `permissionDenied`, `resourceExhausted`, `failedPrecondition`, `aborted`, `outOfRange`,
    ///   `internalError`, `dataLoss`, `unauthenticated`, any other `unavailable`): the request
    ///   may have been delivered, ``RemoteLinkError/lost(_:)``.
    static func linkError(_ error: RPCError, callerCancelled: Bool) -> any Error {
        switch error.code {
        case .unavailable where Self.foundNoConnection(error): RemoteLinkError.unreachable("\(error)")
        case .unimplemented:
            RemoteLinkError.unreachable(
                "the other side does not serve the method: nothing ran there: \(error)")
        case .deadlineExceeded: RemoteLinkError.noAnswer("\(error)")
        case .cancelled where callerCancelled: CancellationError()
        default: RemoteLinkError.lost("\(error)")
        }
    }

    /// Whether the call failed because it found no connection to go out on, so that nothing of
    /// it was sent: grpc-swift's wording for a connection that could not be made (or closed before
    /// its HTTP/2 preface), a channel with no ready connection, or one in transient failure. Any other `unavailable` (a stream that
    /// broke, a connection closed under the call) may have delivered the request: `lost`. The
    /// wording is the pinned grpc-swift's; a version that words it differently makes these
    /// failures `lost`, never the other way round (`GRPCLoopbackTests` and `TwoProcessTests` pin
    /// both sides).
    private static func foundNoConnection(_ error: RPCError) -> Bool {
        [
            "Could not establish a connection", "Channel isn't ready",
            "Channel is in a transient failure state",
            "The server accepted the TCP connection but closed the connection before completing",
        ].contains { error.message.hasPrefix($0) }
    }
}

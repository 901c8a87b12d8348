import GRPCCore
import GRPCNIOTransportHTTP2
public import ServiceLifecycle

/// A gRPC server (HTTP/2, plaintext) that exposes a process's ``RemoteEntries`` to other
/// processes' links: a ``RemoteChainService`` on a `GRPCServer` of its own, runnable alone or as
/// a swift-service-lifecycle `Service`.
///
/// ```swift
/// let server = RemoteChainServer(entries: entries, host: "0.0.0.0", port: 9_000)
/// let group = ServiceGroup(
///     services: [server, EventSystemService(system)],   // the system stops first
///     gracefulShutdownSignals: [.sigterm], logger: logger)
/// try await group.run()
/// ```
///
/// A graceful shutdown lets the calls under way finish (their events end as the entries' systems
/// end them) and then stops; calls made after it began fail at their links as
/// ``RemoteLinkError/unreachable(_:)`` and are never delivered here. One exception, in the gRPC
/// transport beneath (grpc-swift-nio-transport 2.9): a new call made on a connection that is
/// already closing fails, and takes the calls under way on that connection with it; those end
/// `unreachable` at their links too, although their events were delivered here and end here as
/// usual. So treat `unreachable` like `lost` unless an event is idempotent. Place the server *before*
/// the services of the systems it exposes in a `ServiceGroup`, which stops its services in
/// reverse order: the systems drain first while the server still answers, so events that arrive
/// meanwhile come back `rejected` (`shuttingDown`), a typed outcome, rather than unreachable.
public final class RemoteChainServer: Service {
    /// The entries the server exposes.
    public let entries: RemoteEntries
    private let service: RemoteChainService
    private let server: GRPCServer<HTTP2ServerTransport.Posix>

    /// A server for `entries` that listens on `host`:`port` once it runs.
    ///
    /// - Parameters:
    ///   - entries: What other processes' links may reach.
    ///   - host: The IPv4 address to listen on: `"127.0.0.1"` for this machine only, `"0.0.0.0"`
    ///     for every interface.
    ///   - port: The port; 0 lets the system choose one (read it from ``listeningPort``).
    ///   - maxRequestBytes: The largest request read, encoded (4 MiB by default); a larger one
    ///     is refused (``RemoteRefusal/tooLarge(bytes:limit:)``) and its event never posted. The
    ///     server names it in every answer, and a ``GRPCRemoteTransport`` that has learned it
    ///     refuses larger requests before sending them.
    public init(
        entries: RemoteEntries, host: String = "127.0.0.1", port: Int,
        maxRequestBytes: Int = RemoteChainService.defaultMaxRequestBytes
    ) {
        self.entries = entries
        self.service = RemoteChainService(entries: entries, maxRequestBytes: maxRequestBytes)
        var config = HTTP2ServerTransport.Posix.Config.defaults
        config.rpc.maxRequestPayloadSize = Self.transportCeiling(for: maxRequestBytes)
        // A link's transport pings every `keepaliveInterval` (10 s by default), also while no
        // call is open; gRPC's defaults would count such pings as strikes and close the
        // connection after three.
        config.connection.keepalive.clientBehavior = .init(
            minPingIntervalWithoutCalls: Self.minKeepaliveInterval, allowWithoutCalls: true)
        self.server = GRPCServer(
            transport: .http2NIOPosix(
                address: .ipv4(host: host, port: port), transportSecurity: .plaintext, config: config),
            services: [service])
    }

    /// The shortest interval between a client's keepalive pings the server permits, with or
    /// without calls open: 1 s. A client that pings more often has its connection closed
    /// (`GOAWAY`, `too_many_pings`).
    public static var minKeepaliveInterval: Duration { .seconds(1) }

    /// The largest message the server's gRPC transport reads for a service whose limit is
    /// `maxRequestBytes`: twice that limit, and at least 4 MiB (what every gRPC server reads by
    /// default, so that a ``GRPCRemoteTransport`` that does not know the limit yet sends up to that
    /// much without asking), plus room for a stream frame's number. A request up to it reaches
    /// the service, which refuses it by name if it is over `maxRequestBytes`; the transport
    /// resets the stream of a larger one before the service sees it.
    static func transportCeiling(for maxRequestBytes: Int) -> Int {
        let doubled = maxRequestBytes.multipliedReportingOverflow(by: 2)
        let ceiling =
            doubled.overflow ? Int.max : max(doubled.partialValue, GRPCRemoteTransport.requestsSentUnasked)
        return ceiling.addingReportingOverflow(1_024).overflow ? Int.max : ceiling + 1_024
    }

    /// Serves until ``beginGracefulShutdown()`` or, inside a `ServiceGroup`, until the group's
    /// graceful shutdown reaches this service; then lets the calls under way finish and returns.
    ///
    /// - Throws: What the gRPC server throws when it cannot listen (the port is taken, say).
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await server.serve()
        } onGracefulShutdown: {
            self.beginGracefulShutdown()
        }
    }

    /// The port the server listens on, once it does (also when it was created with port 0).
    ///
    /// - Throws: What the gRPC server throws when it could not start listening.
    public var listeningPort: Int {
        get async throws {
            guard let port = try await server.listeningAddress?.ipv4?.port else {
                throw RPCError(code: .internalError, message: "the server listens on no IPv4 address")
            }
            return port
        }
    }

    /// Stops accepting calls, lets those under way finish, then ends ``run()``.
    public func beginGracefulShutdown() {
        service.beginGracefulShutdown()
        server.beginGracefulShutdown()
    }
}

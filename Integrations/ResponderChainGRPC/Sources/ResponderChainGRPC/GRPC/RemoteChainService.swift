public import GRPCCore

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
/// Each call is one event. When the caller gives up the call (cancelled, or past its deadline),
/// the event's ticket is cancelled here.
public struct RemoteChainService: RegistrableRPCService {
    /// The entries the service exposes.
    public let entries: RemoteEntries

    /// A service for `entries`.
    public init(entries: RemoteEntries) {
        self.entries = entries
    }

    /// Registers the service's methods.
    public func registerMethods<Transport: ServerTransport>(with router: inout RPCRouter<Transport>) {
        router.registerHandler(
            forMethod: RemoteChainMethods.deliver,
            deserializer: JSONMessageDeserializer<RemoteRequest>(),
            serializer: JSONMessageSerializer<RemoteReply>()
        ) { [entries] request, context in
            let single = try await ServerRequest(stream: request)
            let reply = await entries.reply(to: single.message, from: context.remotePeer)
            return StreamingServerResponse(single: ServerResponse(message: reply))
        }
        router.registerHandler(
            forMethod: RemoteChainMethods.registryNames,
            deserializer: JSONMessageDeserializer<Empty>(),
            serializer: JSONMessageSerializer<RemoteRegistryNames>()
        ) { [entries] _, _ in
            StreamingServerResponse(single: ServerResponse(message: entries.registry.names))
        }
    }
}

/// How a ``RemoteLink`` reaches the other process: one request, one reply.
///
/// ``GRPCRemoteTransport`` carries them over gRPC; ``InProcessTransport`` hands them to a
/// ``RemoteEntries`` in the same process (through the same JSON), for tests and for one process
/// that hosts both sides.
///
/// ## Implementation requirements
/// - Throw ``RemoteLinkError/unreachable(_:)`` when the request was certainly not delivered,
///   ``RemoteLinkError/lost(_:)`` when it may have been, and ``RemoteLinkError/unreadableReply(_:)``
///   when the answer cannot be read. Any other error is reported as `lost`.
/// - When the calling task is cancelled, give up the call (the other side sees its call
///   cancelled) and throw `CancellationError`.
/// - Never retry a request on your own: a request may not be idempotent.
public protocol RemoteTransport: Sendable {
    /// Delivers `request` and returns the other process's reply.
    func deliver(_ request: RemoteRequest) async throws -> RemoteReply
    /// Delivers `request`, sent by `sender`, and returns the other process's reply. A transport
    /// over several backends chooses by `sender` (``GRPCMultiBackendTransport``); by default this
    /// is ``deliver(_:)``.
    func deliver(_ request: RemoteRequest, sender: RemoteSenderKey) async throws -> RemoteReply
    /// The names the other process's registry holds (for ``RemoteLink/checkRegistry()``).
    func registryNames() async throws -> RemoteRegistryNames
}

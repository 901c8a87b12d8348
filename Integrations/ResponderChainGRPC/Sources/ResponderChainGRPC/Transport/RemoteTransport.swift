/// How a ``RemoteLink`` reaches the other process: one request, one reply.
///
/// ``GRPCRemoteTransport`` carries them over gRPC; ``InProcessTransport`` hands them to a
/// ``RemoteEntries`` in the same process (through the same wire format), for tests and for one process
/// that hosts both sides.
///
/// ## Implementation requirements
/// - Throw ``RemoteLinkError/unreachable(_:)`` when the request was certainly not delivered,
///   ``RemoteLinkError/lost(_:)`` when it may have been, and ``RemoteLinkError/unreadableReply(_:)``
///   when the answer cannot be read. Any other error is reported as `lost`.
/// - When the calling task is cancelled, give up the call (the other side sees its call
///   cancelled) and throw `CancellationError`.
/// - Never retry a request on your own: a request may not be idempotent.
/// - ``deliver(_:sender:placed:)`` is optional; its default delivers the request as
///   ``deliver(_:)`` does and never calls `placed`, which keeps the sender's order (its next
///   post waits for this one's outcome). A transport that calls `placed` must deliver one
///   sender's requests to the other side in the order they were placed.
public protocol RemoteTransport: Sendable {
    /// Delivers `request` and returns the other process's reply.
    func deliver(_ request: RemoteRequest) async throws -> RemoteReply
    /// Delivers `request`, sent by `sender`, and returns the other process's reply.
    ///
    /// A transport over several backends chooses by `sender` (``GRPCMultiBackendTransport``).
    /// For a post its sender's lane is delivering, `placed` is given: a transport that keeps one
    /// sender's requests in order (``GRPCRemoteTransport``'s streams) calls it, at most once and
    /// synchronously, as soon as the request's place in that order is fixed; the sender's next
    /// post may then be delivered while this one waits for its reply. By default this is
    /// ``deliver(_:)``, and `placed` is not called: the sender's next post waits for this one's
    /// reply.
    func deliver(_ request: RemoteRequest, sender: RemoteSenderKey, placed: (() -> Void)?) async throws
        -> RemoteReply
    /// The names the other process's registry holds (for ``RemoteLink/checkRegistry()``).
    func registryNames() async throws -> RemoteRegistryNames
}

extension RemoteTransport {
    /// Delivers `request` with ``deliver(_:)``: the transport has no choice to make, and keeps no
    /// order of its own (`placed` is not called).
    public func deliver(_ request: RemoteRequest, sender: RemoteSenderKey, placed: (() -> Void)?) async throws
        -> RemoteReply
    {
        try await deliver(request)
    }
}

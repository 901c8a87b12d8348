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
/// - ``deliver(_:inOrderOf:placed:)`` is optional; its default delivers the request as
///   ``deliver(_:)`` does and never calls `placed`, which keeps the sender's order (its next
///   post waits for this one's outcome). A transport that implements it must deliver one
///   sender's requests to the other side in the order it is called, and call `placed` once the
///   request's place in that order is fixed.
public protocol RemoteTransport: Sendable {
    /// Delivers `request` and returns the other process's reply.
    func deliver(_ request: RemoteRequest) async throws -> RemoteReply
    /// Delivers `request`, a post of the sender `sender`, behind the requests of that sender
    /// delivered in order before it, and returns the other process's reply. Calls `placed`
    /// (at most once, synchronously) as soon as the request's place in that order is fixed:
    /// from then on the sender's next post may be delivered while this one waits for its reply.
    func deliver(_ request: RemoteRequest, inOrderOf sender: ObjectIdentifier, placed: () -> Void)
        async throws -> RemoteReply
    /// The names the other process's registry holds (for ``RemoteLink/checkRegistry()``).
    func registryNames() async throws -> RemoteRegistryNames
}

extension RemoteTransport {
    /// Delivers `request` as ``deliver(_:)`` does; `placed` is not called, so the sender's next
    /// post waits for this one's reply.
    public func deliver(_ request: RemoteRequest, inOrderOf sender: ObjectIdentifier, placed: () -> Void)
        async throws -> RemoteReply
    {
        try await deliver(request)
    }
}

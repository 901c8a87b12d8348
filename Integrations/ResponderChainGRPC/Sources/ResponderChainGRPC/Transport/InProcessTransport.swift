/// A transport to ``RemoteEntries`` in this process: each request and reply is written and read
/// in the wire format (protobuf), and answered in a task of its own, as on the wire, without a network between them. For tests of a chain split in two,
/// and for a process that hosts both sides.
///
/// ```swift
/// let link = RemoteLink(entry: "orders", transport: InProcessTransport(entries), registry: registry)
/// ```
public struct InProcessTransport: RemoteTransport {
    private let entries: RemoteEntries
    private let peer: String

    /// A transport to `entries`; `peer` names the sending side in the events' source.
    public init(_ entries: RemoteEntries, peer: String = "in-process") {
        self.entries = entries
        self.peer = peer
    }

    /// Hands `request` to the entries, through the wire format both ways.
    public func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        let received = try RemoteRequest(serializedBytes: request.serializedBytes())
        // In a task of its own, as a server would answer: nothing of the caller's task (its
        // `ServiceContext`, say) reaches the other side but what the request carries. Giving up
        // the call cancels it, as a cancelled RPC does.
        let answer = Task.detached { [entries, peer] in await entries.reply(to: received, from: peer) }
        let reply = await withTaskCancellationHandler {
            await answer.value
        } onCancel: {
            answer.cancel()
        }
        do {
            return try RemoteReply(serializedBytes: reply.serializedBytes())
        } catch {
            throw RemoteLinkError.unreadableReply("\(error)")
        }
    }

    /// The entries' registered names.
    public func registryNames() async throws -> RemoteRegistryNames {
        entries.registry.names
    }
}

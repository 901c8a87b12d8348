import NIOCore
import NIOEmbedded

/// The NIO side: D ``ChainHandler``s in the pipeline of an `EmbeddedChannel` (whose event loop is
/// the thread that made it: ``PeerThread``'s), fed with `pipeline.fireChannelRead`.
@PeerThread
final class PipelineChain: PeerChain {
    private let channel = EmbeddedChannel()
    private let top: ChainHandler

    init(depth: Int) throws {
        // Added bottom first: inbound messages travel from the head of the pipeline.
        let handlers = (0..<depth).map { ChainHandler(isTop: $0 == depth - 1) }
        top = handlers[depth - 1]
        try channel.pipeline.syncOperations.addHandlers(handlers)
    }

    func send(iterations: Int) -> Timed {
        let consumed = top.consumed
        let stopwatch = Stopwatch()
        for index in 0..<iterations {
            channel.pipeline.fireChannelRead(EventEnvelope(event: Probe(a: index, b: 1, c: 2)))
        }
        let timed = stopwatch.stop(iterations: iterations, checksum: UInt64(bitPattern: Int64(top.seen)))
        precondition(top.consumed - consumed == iterations, "a probe did not reach the top handler")
        return timed
    }

    func finish() throws {
        _ = try channel.finish()
    }

    // The channel's event loop must also be freed on its thread.
    isolated deinit {}
}

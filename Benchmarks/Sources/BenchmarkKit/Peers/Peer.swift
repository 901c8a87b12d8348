/// The peers, in the order of the report.
enum Peer: String, CaseIterable, Sendable {
    /// SwiftNIO: a `ChannelPipeline` of inbound handlers on an `EmbeddedChannel`.
    case nio
    /// OpenCombine: `PassthroughSubject`s, each stage subscribed to the one below.
    case opencombine

    /// The row's name in the table.
    var title: String {
        switch self {
        case .nio: "send vs NIO ChannelPipeline"
        case .opencombine: "send vs OpenCombine subjects"
        }
    }

    /// What the row compares, printed under the table.
    var note: String {
        let library =
            "library: await send(Probe) through D actor responders, each on its own executor, from "
            + "a task on the global concurrent executor (scenario 1's library side)"
        switch self {
        case .nio:
            return "9 nio: \(library); peer: pipeline.fireChannelRead(Probe) on an EmbeddedChannel, "
                + "D inbound handlers (unwrapInboundIn to a concrete envelope holding the event; "
                + "4-entry lookup; context.fireChannelRead); synchronous calls on the channel's "
                + "thread, a NIO event loop's"
        case .opencombine:
            return "9 opencombine: \(library); peer: PassthroughSubject.send(Probe) into D "
                + "subscribers, each forwarding with its own subject's send after the 4-entry "
                + "lookup; synchronous calls on the sender's thread (the subjects' locks, no "
                + "executor switch)"
        }
    }

    /// The chain type for this peer.
    var chainType: any PeerChain.Type {
        switch self {
        case .nio: PipelineChain.self
        case .opencombine: SubjectChain.self
        }
    }
}

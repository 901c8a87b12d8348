import ResponderChain

/// Scenario 9: the library's awaited send beside two other libraries that move an event through D
/// stages, SwiftNIO's `ChannelPipeline` and OpenCombine's `PassthroughSubject` (``Peer``). At each
/// depth the library's chain (scenario 1's library side) and every peer's chain are calibrated,
/// warmed up and then measured in alternation, so the library's sample is shared by the depth's
/// rows and a noisy moment hits every side. Each row's baseline column is the peer.
struct Peers: Scenario {
    let id = "peers"
    let title = "9 peers"

    func run(_ measurer: Measurer) async throws -> [Row] {
        var rows: [Row] = []
        for depth in measurer.options.depths {
            let library = ChainActor.chain(depth: depth)
            var chains: [any PeerChain] = []
            for peer in Peer.allCases { chains.append(try await peer.chainType.init(depth: depth)) }
            var batches: [Batch] = [{ await Self.send(library, depth: depth, iterations: $0) }]
            for chain in chains {
                batches.append { await chain.send(iterations: $0) }
            }
            let samples = await measurer.measure(batches)
            for chain in chains { try await chain.finish() }
            for (index, peer) in Peer.allCases.enumerated() {
                rows.append(
                    Row(
                        id: id, scenario: "\(title), \(peer.title)", depth: depth, hops: Double(depth),
                        library: samples[0], baseline: samples[index + 1], target: .fasterThanBaseline,
                        note: peer.note))
            }
        }
        return rows
    }

    /// Scenario 1's library loop, checked (untimed) to have reached the top `depth` hops up on
    /// every send.
    @concurrent
    static func send(_ bottom: ChainActor, depth: Int, iterations: Int) async -> Timed {
        let timed = await AwaitedSendActors.send(bottom, iterations: iterations)
        precondition(
            timed.checksum == UInt64(iterations * depth), "a send did not reach the top of the chain")
        return timed
    }
}

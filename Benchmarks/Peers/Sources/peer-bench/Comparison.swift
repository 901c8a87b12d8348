/// The whole run: at each depth, the library and every selected peer are built, calibrated, warmed
/// up and then measured in alternation (library, peer, peer, library, …), so that the library's
/// sample is shared by the depth's rows and a noisy moment hits every side.
@MainActor
struct Comparison {
    let peers: [Peer]

    /// One row per peer and depth, depth by depth.
    func run(_ measurer: Measurer, progress: (String) -> Void) async throws -> [Row] {
        var rows: [Row] = []
        for depth in measurer.options.depths {
            progress("D = \(depth)")
            let library = LibraryChain(depth: depth)
            var chains: [any PeerChain] = []
            for peer in peers { chains.append(try await peer.chainType.init(depth: depth)) }
            var batches: [Batch] = [{ await library.send(iterations: $0) }]
            for chain in chains {
                batches.append { await chain.send(iterations: $0) }
            }
            let samples = await measurer.measure(batches)
            for chain in chains { try await chain.finish() }
            for (index, peer) in peers.enumerated() {
                rows.append(
                    Row(peer: peer, depth: depth, library: samples[0], baseline: samples[index + 1]))
            }
        }
        return rows
    }
}

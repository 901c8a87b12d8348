import ResponderChain

/// One awaited-send loop over a chain of any depth, for `hop-instructions`: the same chains and
/// loops as responder-bench's scenarios 1-3, run once under `valgrind --tool=callgrind`, whose
/// instruction counts a busy machine does not disturb.
package enum InstructionLoop {
    /// The chains, by name: the library's and the hand-written baseline of each isolation.
    package static let chains = [
        "actors", "actors-baseline", "shared", "shared-baseline", "main", "main-baseline",
    ]

    /// Builds `chain` at `depth`, warms it with 32 sends, then sends `iterations` events up it;
    /// returns the loop's checksum, or `nil` for a name not in ``chains``.
    package static func run(_ chain: String, depth: Int, iterations: Int) async -> UInt64? {
        switch chain {
        case "actors":
            let bottom = ChainActor.chain(depth: depth)
            _ = await AwaitedSendActors.send(bottom, iterations: 32)
            return await AwaitedSendActors.send(bottom, iterations: iterations).checksum
        case "actors-baseline":
            let bottom = BareActor.chain(depth: depth)
            _ = await AwaitedSendActors.send(bottom, iterations: 32)
            return await AwaitedSendActors.send(bottom, iterations: iterations).checksum
        case "shared":
            let leader = Leader()
            let bottom = SharedChainActor.chain(depth: depth, leader: leader)
            _ = await AwaitedSendSharedExecutor.send(bottom, on: leader, iterations: 32)
            return await AwaitedSendSharedExecutor.send(bottom, on: leader, iterations: iterations).checksum
        case "shared-baseline":
            let leader = Leader()
            let bottom = BareSharedActor.chain(depth: depth, leader: leader)
            _ = await AwaitedSendSharedExecutor.send(bottom, on: leader, iterations: 32)
            return await AwaitedSendSharedExecutor.send(bottom, on: leader, iterations: iterations).checksum
        case "main":
            let bottom = await MainChainResponder.chain(depth: depth)
            _ = await MainActorChain.send(bottom, iterations: 32)
            return await MainActorChain.send(bottom, iterations: iterations).checksum
        case "main-baseline":
            let bottom = await BareMainActorLink.chain(depth: depth)
            _ = await MainActorChain.send(bottom, iterations: 32)
            return await MainActorChain.send(bottom, iterations: iterations).checksum
        default:
            return nil
        }
    }
}

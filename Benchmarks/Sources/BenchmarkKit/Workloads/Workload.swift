/// One loop of a scenario, for the package-benchmark suites: the same chains and the same send
/// loops as responder-bench's scenarios, set up outside the measured region.
///
/// A suite calls ``prepare`` (builds the chain and warms it up), then measures the returned loop
/// over a fixed number of iterations; the loop returns a checksum for the suite to consume.
package struct Workload: Sendable {
    /// Runs the loop `iterations` times; returns a checksum of what it computed.
    package typealias Loop = @Sendable (_ iterations: Int) async -> UInt64

    /// The benchmark's name: the responder-bench scenario id, the side, the depth
    /// (`actors.library.D8`). No spaces: package-benchmark names its threshold files after it.
    package let name: String
    /// Whether retains and releases can be counted: the loop stays on one executor. Swift 6.3's
    /// runtime hooks, which package-benchmark counts them with on Linux, crash on the concurrency
    /// runtime's cross-thread paths (ordo-one/benchmark#349), so loops that hop between threads
    /// count allocations only.
    package let countsRetains: Bool
    /// Builds the chain, runs the loop a few times to warm it up, and returns the loop.
    package let prepare: @Sendable () async -> Loop

    /// A workload named `name` whose chain `make` builds, and whose loop is `loop` over that chain.
    init<Chain: Sendable>(
        _ name: String, countsRetains: Bool = false, make: @escaping @Sendable () async -> Chain,
        loop: @escaping @Sendable (Chain, Int) async -> UInt64
    ) {
        self.name = name
        self.countsRetains = countsRetains
        prepare = {
            let chain = await make()
            _ = await loop(chain, 32)
            return { await loop(chain, $0) }
        }
    }
}

extension Workload {
    /// The hops of responder-bench's scenarios 1-4: an awaited send through distinct actors (the
    /// fixed cost at D = 1, and D = 8), on a shared executor, up a `@MainActor` chain, and a posted
    /// event; each library loop with its hand-written baseline where the scenario has one.
    package static let hops: [Workload] = [
        Workload(
            "actors.library.D1", make: { ChainActor.chain(depth: 1) },
            loop: { await AwaitedSendActors.send($0, iterations: $1).checksum }),
        Workload(
            "actors.library.D8", make: { ChainActor.chain(depth: 8) },
            loop: { await AwaitedSendActors.send($0, iterations: $1).checksum }),
        Workload(
            "actors.baseline.D8", make: { BareActor.chain(depth: 8) },
            loop: { await AwaitedSendActors.send($0, iterations: $1).checksum }),
        Workload(
            "shared-executor.library.D8", countsRetains: true,
            make: {
                let leader = Leader()
                return (leader, SharedChainActor.chain(depth: 8, leader: leader))
            },
            loop: { await AwaitedSendSharedExecutor.send($0.1, on: $0.0, iterations: $1).checksum }),
        Workload(
            "shared-executor.baseline.D8", countsRetains: true,
            make: {
                let leader = Leader()
                return (leader, BareSharedActor.chain(depth: 8, leader: leader))
            },
            loop: { await AwaitedSendSharedExecutor.send($0.1, on: $0.0, iterations: $1).checksum }),
        Workload(
            "main-actor.library.D8", countsRetains: true,
            make: { await MainChainResponder.chain(depth: 8) },
            loop: { await MainActorChain.send($0, iterations: $1).checksum }),
        Workload(
            "main-actor.baseline.D8", countsRetains: true,
            make: { await BareMainActorLink.chain(depth: 8) },
            loop: { await MainActorChain.send($0, iterations: $1).checksum }),
        Workload(
            "posted.library.D8", make: { ChainActor.chain(depth: 8) },
            loop: { await PostedEvents.post($0, senders: 1, iterations: $1).checksum }),
    ]
}

import ResponderChain

/// One loop of a scenario, for the package-benchmark suites: the same chains and the same send
/// loops as responder-bench's scenarios, set up outside the measured region.
///
/// A suite calls ``prepare`` (builds the chain and warms it up), then measures the returned loop
/// over a fixed number of iterations; the loop returns a checksum for the suite to consume.
package struct Workload: Sendable {
    /// Runs the loop `iterations` times; returns a checksum of what it computed, and throws when
    /// a result is wrong.
    package typealias Loop = @Sendable (_ iterations: Int) async throws -> UInt64

    /// The benchmark's name: the responder-bench scenario id, the side, the depth
    /// (`actors.library.D8`). No spaces: package-benchmark names its threshold files after it.
    package let name: String
    /// Whether retains and releases can be counted: the loop stays on one executor. Swift 6.3's
    /// runtime hooks, which package-benchmark counts them with on Linux, crash on the concurrency
    /// runtime's cross-thread paths (ordo-one/benchmark#349), so loops that hop between threads
    /// count allocations only.
    package let countsRetains: Bool
    /// How far the counts (allocations, retains, releases) of 1,000 iterations may drift from
    /// their thresholds before a check fails: a stray allocation of the runtime's, or a count that
    /// moves by one or two per iteration on a long path. Far below one more allocation per hop.
    package let countTolerance: Int
    /// Builds the chain, runs the loop a few times to warm it up, and returns the loop.
    package let prepare: @Sendable () async throws -> Loop

    /// A workload named `name` whose chain `make` builds, and whose loop is `loop` over that chain.
    init<Chain: Sendable>(
        _ name: String, countsRetains: Bool = false, countTolerance: Int = 50,
        make: @escaping @Sendable () async throws -> Chain,
        loop: @escaping @Sendable (Chain, Int) async throws -> UInt64
    ) {
        self.name = name
        self.countsRetains = countsRetains
        self.countTolerance = countTolerance
        prepare = {
            let chain = try await make()
            _ = try await loop(chain, 32)
            return { try await loop(chain, $0) }
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

    /// Scenario 9's peers at D = 8: a SwiftNIO `ChannelPipeline` and OpenCombine subjects, on the
    /// peers' event loop thread.
    package static let peers: [Workload] = [
        Workload(
            "peers.nio.D8", countsRetains: true, make: { try await PipelineChain(depth: 8) },
            loop: { await $0.send(iterations: $1).checksum }),
        Workload(
            "peers.opencombine.D8", countsRetains: true, make: { await SubjectChain(depth: 8) },
            loop: { await $0.send(iterations: $1).checksum }),
    ]

    /// Scenario 7d's integrations' tracers at D = 8, each in the configuration its target is for.
    package static let tracers: [Workload] = [
        tracer("logging-tracer.library.D8", .loggingBelowLevel),
        tracer("span-tracer.library.D8", .spanOverNoOpTracer),
        tracer("metrics-tracer.library.D8", .metricsNoOpBackend),
    ]

    private static func tracer(_ name: String, _ variant: TracerCost.Variant) -> Workload {
        Workload(
            name, make: { ChainActor.chain(depth: 8) },
            loop: { await TracerCost.send($0, variant, iterations: $1).checksum })
    }

    #if RemoteAndStores
        /// Scenario 10's remote hop without a network: an awaited send from a front responder through
        /// a `RemoteLink` and an `InProcessTransport` to a backend's entry (both JSON codings, the
        /// registry, the backend's posting), every outcome checked. About 330 allocations per send,
        /// which move by one or two from run to run: its tolerance is two per send (one more
        /// allocation per hop, three hops, adds three).
        package static let remote: [Workload] = [
            Workload(
                "remote.in-process", countTolerance: 2_000,
                make: {
                    let (entries, entry) = RemoteHop.backend()
                    return (RemoteHop.inProcessFront(to: entries, system: EventSystem()), entry)
                },
                loop: { try await RemoteHop.send(from: $0.0, iterations: $1).checksum })
        ]
    #else
        /// Scenario 10's remote hop: built with the trait `RemoteAndStores` only.
        package static let remote: [Workload] = []
    #endif
}

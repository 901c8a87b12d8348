import ResponderChain

/// Scenario 2: an awaited send through D actor responders that share one executor (a
/// ``Leader``'s), issued from a function already isolated to the leader, against plain actors on
/// the same kind of shared executor that forward by hand.
struct AwaitedSendSharedExecutor: Scenario {
    let id = "shared-executor"
    let title = "2 awaited send, shared executor"

    func run(_ measurer: Measurer) async -> [Row] {
        var samples: [(depth: Int, library: Sample, baseline: Sample)] = []
        for depth in measurer.options.depths {
            let leader = Leader()
            let library = SharedChainActor.chain(depth: depth, leader: leader)
            let baseline = BareSharedActor.chain(depth: depth, leader: leader)
            let (librarySample, baselineSample) = await measurer.measurePair(
                library: { await Self.send(library, on: leader, iterations: $0) },
                baseline: { await Self.send(baseline, on: leader, iterations: $0) })
            samples.append((depth, librarySample, baselineSample))
        }
        return Row.awaitedSend(id: id, title: title, samples: samples)
    }

    /// `iterations` awaited sends from `bottom`, issued on `leader`'s executor, timed.
    static func send(_ bottom: SharedChainActor, on leader: isolated Leader, iterations: Int) async
        -> Timed
    {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for index in 0..<iterations {
            let outcome = await bottom.send(Probe(a: index, b: 1, c: 2))
            checksum &+= UInt64(outcome.hops)
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }

    /// `iterations` hand-forwarded events from `bottom`, issued on `leader`'s executor, timed.
    static func send(_ bottom: BareSharedActor, on leader: isolated Leader, iterations: Int) async
        -> Timed
    {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for index in 0..<iterations {
            let hop = await bottom.receive(Probe(a: index, b: 1, c: 2), hop: 1)
            checksum &+= UInt64(bitPattern: Int64(hop))
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }
}

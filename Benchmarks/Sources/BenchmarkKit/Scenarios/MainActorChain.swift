import ResponderChain

/// Scenario 3: an awaited send through D `@MainActor` responders (``MainActorResponder``), sent
/// from the main actor, against plain `@MainActor` classes with async links.
struct MainActorChain: Scenario {
    let id = "main-actor"
    let title = "3 @MainActor view chain"

    func run(_ measurer: Measurer) async -> [Row] {
        var samples: [(depth: Int, library: Sample, baseline: Sample)] = []
        for depth in measurer.options.depths {
            let library = MainChainResponder.chain(depth: depth)
            let baseline = BareMainActorLink.chain(depth: depth)
            let (librarySample, baselineSample) = await measurer.measurePair(
                library: { await Self.send(library, iterations: $0) },
                baseline: { await Self.send(baseline, iterations: $0) })
            samples.append((depth, librarySample, baselineSample))
        }
        return Row.awaitedSend(id: id, title: title, samples: samples)
    }

    /// `iterations` awaited sends from `bottom`, on the main actor, timed.
    @MainActor
    static func send(_ bottom: MainChainResponder, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for index in 0..<iterations {
            let outcome = await bottom.send(Probe(a: index, b: 1, c: 2))
            checksum &+= UInt64(outcome.hops)
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }

    /// `iterations` hand-forwarded events from `bottom`, on the main actor, timed.
    @MainActor
    static func send(_ bottom: BareMainActorLink, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for index in 0..<iterations {
            let hop = await bottom.receive(Probe(a: index, b: 1, c: 2), hop: 1)
            checksum &+= UInt64(bitPattern: Int64(hop))
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }
}

import ResponderChain

/// Scenario 1: an awaited send through D distinct actors (each on its own default executor),
/// against a chain of plain actors that forward to each other by hand.
///
/// Both run in a task on the global concurrent executor (not the main actor: entering an actor
/// from the main thread is a thread handoff per hop, which would measure the OS, not the chain).
struct AwaitedSendActors: Scenario {
    let id = "actors"
    let title = "1 awaited send, distinct actors"

    func run(_ measurer: Measurer) async -> [Row] {
        var samples: [(depth: Int, library: Sample, baseline: Sample)] = []
        for depth in measurer.options.depths {
            let library = ChainActor.chain(depth: depth)
            let baseline = BareActor.chain(depth: depth)
            let (librarySample, baselineSample) = await measurer.measurePair(
                library: { await Self.send(library, iterations: $0) },
                baseline: { await Self.send(baseline, iterations: $0) })
            samples.append((depth, librarySample, baselineSample))
        }
        return Row.awaitedSend(id: id, title: title, samples: samples)
    }

    /// `iterations` awaited sends from `bottom`, timed.
    @concurrent
    static func send(_ bottom: some Responder, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for index in 0..<iterations {
            let outcome = await bottom.send(Probe(a: index, b: 1, c: 2))
            checksum &+= UInt64(outcome.hops)
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }

    /// `iterations` awaited sends from `bottom` with `options`, timed (the tracing and deadline
    /// scenarios' loop).
    @concurrent
    static func send(_ bottom: some Responder, options: SendOptions, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for index in 0..<iterations {
            let outcome = await bottom.send(Probe(a: index, b: 1, c: 2), options: options)
            checksum &+= UInt64(outcome.hops)
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }

    /// `iterations` hand-forwarded events from `bottom`, timed.
    @concurrent
    static func send(_ bottom: BareActor, iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for index in 0..<iterations {
            let hop = await bottom.receive(Probe(a: index, b: 1, c: 2), hop: 1)
            checksum &+= UInt64(bitPattern: Int64(hop))
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }
}

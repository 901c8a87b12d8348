import ResponderChain
import ResponderChainTesting

/// Scenario 7: the cost of tracing, at D = 8 and 64, on the distinct-actor chain of scenario 1:
/// no tracer against the hand-written chain (the library's routing cannot be built without its
/// tracing hooks, so "no tracer" is compared with the bare baseline), and a `RecordingTracer`
/// (reset between repetitions) against no tracer.
struct Tracing: Scenario {
    let id = "tracing"
    let title = "7 tracing"

    func run(_ measurer: Measurer) async -> [Row] {
        var rows: [Row] = []
        for depth in [8, 64] {
            let library = ChainActor.chain(depth: depth)
            let baseline = BareActor.chain(depth: depth)
            let recorder = RecordingTracer()
            let samples = await measurer.measure([
                { await AwaitedSendActors.send(library, iterations: $0) },
                { await AwaitedSendActors.send(baseline, iterations: $0) },
                {
                    recorder.reset()
                    return await Self.send(library, tracer: recorder, iterations: $0)
                },
            ])
            recorder.reset()
            rows.append(
                Row(
                    id: id, scenario: "\(title), no tracer vs bare", depth: depth,
                    hops: Double(depth), library: samples[0], baseline: samples[1],
                    target: .report))
            rows.append(
                Row(
                    id: id, scenario: "\(title), RecordingTracer vs no tracer", depth: depth,
                    hops: Double(depth), library: samples[2], baseline: samples[0],
                    target: .report,
                    note: "7: the RecordingTracer rows' baseline column is the library with no "
                        + "tracer; overhead per hop = the difference"))
        }
        return rows
    }

    /// `iterations` awaited sends from `bottom` with `tracer` installed for the send, timed.
    @concurrent
    static func send(_ bottom: ChainActor, tracer: RecordingTracer, iterations: Int) async -> Timed {
        let options = SendOptions(tracer: tracer)
        let stopwatch = Stopwatch()
        var checksum: UInt64 = 0
        for index in 0..<iterations {
            let outcome = await bottom.send(Probe(a: index, b: 1, c: 2), options: options)
            checksum &+= UInt64(outcome.hops)
        }
        return stopwatch.stop(iterations: iterations, checksum: checksum)
    }
}

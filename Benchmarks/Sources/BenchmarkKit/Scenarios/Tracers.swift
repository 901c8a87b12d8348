import ResponderChain
import ResponderChainTesting
import Synchronization

/// Scenario 7: the cost of tracing, at D = 8 and 64, on the distinct-actor chain of scenario 1:
/// no tracer against the hand-written chain (the library's routing cannot be built without its
/// tracing hooks, so "no tracer" is compared with the bare baseline); then, against no tracer, a
/// tracer that declines every send at its gate (switched off by a flag), a `RecordingTracer`
/// (reset between repetitions), and a `MultiplexTracer` of two `RecordingTracer`s.
struct Tracers: Scenario {
    let id = "tracing"
    let title = "7 tracing"

    func run(_ measurer: Measurer) async -> [Row] {
        var rows: [Row] = []
        for depth in [8, 64] {
            let library = ChainActor.chain(depth: depth)
            let baseline = BareActor.chain(depth: depth)
            let declining = SwitchedOffTracer()
            let recorder = RecordingTracer()
            let recorders = (RecordingTracer(), RecordingTracer())
            let multiplexed = MultiplexTracer([recorders.0, recorders.1])
            let samples = await measurer.measure([
                { await AwaitedSendActors.send(library, iterations: $0) },
                { await AwaitedSendActors.send(baseline, iterations: $0) },
                { await Self.send(library, tracer: declining, iterations: $0) },
                {
                    recorder.reset()
                    return await Self.send(library, tracer: recorder, iterations: $0)
                },
                {
                    recorders.0.reset()
                    recorders.1.reset()
                    return await Self.send(library, tracer: multiplexed, iterations: $0)
                },
            ])
            recorder.reset()
            recorders.0.reset()
            recorders.1.reset()
            rows.append(
                Row(
                    id: id, scenario: "\(title), no tracer vs bare", depth: depth,
                    hops: Double(depth), library: samples[0], baseline: samples[1],
                    target: .report))
            rows.append(
                Row(
                    id: id, scenario: "\(title), declining tracer vs no tracer", depth: depth,
                    hops: Double(depth), library: samples[2], baseline: samples[0],
                    target: .ratioAtMost(1.1),
                    note: "7: the rows against \"no tracer\" have the library with no tracer as "
                        + "their baseline column; overhead per hop = the difference"))
            rows.append(
                Row(
                    id: id, scenario: "\(title), RecordingTracer vs no tracer", depth: depth,
                    hops: Double(depth), library: samples[3], baseline: samples[0],
                    target: .extraNanosecondsPerHopAtMost(500)))
            rows.append(
                Row(
                    id: id, scenario: "\(title), multiplexed (2 recording tracers)", depth: depth,
                    hops: Double(depth), library: samples[4], baseline: samples[0],
                    target: .report))
        }
        return rows
    }

    /// `iterations` awaited sends from `bottom` with `tracer` installed for the send, timed.
    static func send(_ bottom: ChainActor, tracer: any Tracer, iterations: Int) async -> Timed {
        await AwaitedSendActors.send(bottom, options: SendOptions(tracer: tracer), iterations: iterations)
    }
}

/// A tracer switched off by a flag: its gate declines every send, so no send is traced.
final class SwitchedOffTracer: Tracer {
    private let isEnabled = Atomic<Bool>(false)

    func shouldTrace(_ event: any Event, from source: EventSource) -> Bool {
        isEnabled.load(ordering: .relaxed)
    }

    func record(_ event: TraceEvent) {}
}

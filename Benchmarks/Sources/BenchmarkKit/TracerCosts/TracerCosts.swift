import ResponderChain
import Tracing

/// Scenario 7d: what the integrations' tracers cost per hop, at D = 8 and 64, on the
/// distinct-actor chain of scenario 1: each tracer's variants against the same chain with no
/// tracer (every row's baseline column), measured in alternation. One scenario per integration
/// (``TracerCost/logging``, ``TracerCost/span``, ``TracerCost/metrics``).
struct TracerCost: Scenario {
    /// One measured configuration: a tracer for the sends, and a `ServiceContext` bound around
    /// them when the sender has one.
    struct Variant: Sendable {
        var name: String
        var tracer: any ResponderChain.Tracer
        var context: ServiceContext?
        var target: Target = .report
    }

    let id: String
    let title: String
    /// What every row's note says.
    let note: String
    let variants: @Sendable () -> [Variant]

    func run(_ measurer: Measurer) async -> [Row] {
        var rows: [Row] = []
        let variants = self.variants()
        for depth in [8, 64] {
            let bottom = ChainActor.chain(depth: depth)
            var batches: [Batch] = [{ await AwaitedSendActors.send(bottom, iterations: $0) }]
            for variant in variants {
                batches.append { await Self.send(bottom, variant, iterations: $0) }
            }
            let samples = await measurer.measure(batches)
            for (index, variant) in variants.enumerated() {
                rows.append(
                    Row(
                        id: id, scenario: "\(title), \(variant.name) vs no tracer", depth: depth,
                        hops: Double(depth), library: samples[index + 1], baseline: samples[0],
                        target: variant.target, note: note))
            }
        }
        return rows
    }

    /// `iterations` awaited sends from `bottom` with the variant's tracer installed for the send,
    /// and its context bound as the sender's `ServiceContext` when it has one, timed.
    @concurrent
    static func send(_ bottom: ChainActor, _ variant: Variant, iterations: Int) async -> Timed {
        guard let context = variant.context else {
            return await Tracers.send(bottom, tracer: variant.tracer, iterations: iterations)
        }
        return await ServiceContext.withValue(context) {
            await Tracers.send(bottom, tracer: variant.tracer, iterations: iterations)
        }
    }
}

import ResponderChain

/// Scenario 7c: what capture and wrappers cost an awaited send, at D = 1 and 8, on the
/// distinct-actor chain of scenario 1 (whose library side, capture off, is every row's baseline
/// column, measured in alternation with the others).
///
/// - *control*: this scenario's responder type in a system with capture off: the same cost as
///   the baseline, or the rows below compare two types, not two configurations;
/// - *capture on, no capturer*: the system runs the capture pass and nobody captures: the cost
///   of reading the chain's links once before the bubble;
/// - *capture on, top captures*: the top responder's capture handler sees the probe first and
///   passes: the links read, plus one capture hop;
/// - *one wrapper*: a system wrapper that only calls `next`, around each of the D hops.
struct Interception: Scenario {
    let id = "interception"
    let title = "7c interception"

    func run(_ measurer: Measurer) async -> [Row] {
        let capturing = EventSystem(runsCapturePhase: true)
        let wrapping = EventSystem(middleware: [PassThroughWrapper()])
        var rows: [Row] = []
        for depth in [1, 8] {
            let baseline = ChainActor.chain(depth: depth)
            let variants: [(name: String, bottom: InterceptingActor, target: Target)] = [
                ("control, capture off", .chain(depth: depth, system: .default, topCaptures: false), .report),
                (
                    "capture on, no capturer", .chain(depth: depth, system: capturing, topCaptures: false),
                    .ratioAtMost(1.1)
                ),
                (
                    "capture on, top captures", .chain(depth: depth, system: capturing, topCaptures: true),
                    .report
                ),
                (
                    "one system wrapper", .chain(depth: depth, system: wrapping, topCaptures: false),
                    .extraNanosecondsPerHopAtMost(40)
                ),
            ]
            var batches: [Batch] = [{ await AwaitedSendActors.send(baseline, iterations: $0) }]
            for variant in variants {
                let bottom = variant.bottom
                batches.append { await AwaitedSendActors.send(bottom, iterations: $0) }
            }
            let samples = await measurer.measure(batches)
            for (index, variant) in variants.enumerated() {
                rows.append(
                    Row(
                        id: id, scenario: "\(title), \(variant.name) vs scenario 1", depth: depth,
                        hops: Double(depth), library: samples[index + 1], baseline: samples[0],
                        target: variant.target,
                        note: "7c: the baseline column is scenario 1's library side (capture off, no wrapper)"
                    ))
            }
        }
        return rows
    }
}

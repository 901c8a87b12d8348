import ResponderChain

/// Scenario 7b: what an open observation stream costs a send, at D = 1 and 8, on the
/// distinct-actor chain of scenario 1. The baseline column is the library with no stream open
/// (where the ending reads one atomic counter); the library column has one outcome stream open
/// that nobody reads, so after its first 1,024 sends every ending also takes the drop path of a
/// full buffer (the steady state of a consumer that has fallen behind).
struct Observation: Scenario {
    let id = "observation"
    let title = "7b observation"

    func run(_ measurer: Measurer) async -> [Row] {
        var rows: [Row] = []
        for depth in [1, 8] {
            let library = ChainActor.chain(depth: depth)
            let samples = await measurer.measure([
                { await AwaitedSendActors.send(library, iterations: $0) },
                {
                    let stream = EventSystem.default.observeOutcomes(buffering: .keepingNewest(1_024))
                    let timed = await AwaitedSendActors.send(library, iterations: $0)
                    // Keeps the stream open until the sends are timed.
                    _ = stream.droppedCount
                    return timed
                },
            ])
            rows.append(
                Row(
                    id: id, scenario: "\(title), one outcome stream open vs none", depth: depth,
                    hops: Double(depth), library: samples[1], baseline: samples[0],
                    target: .report,
                    note: "7b: the baseline column is the library with no stream open"))
        }
        return rows
    }
}

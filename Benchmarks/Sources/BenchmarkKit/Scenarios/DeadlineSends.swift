import ResponderChain

/// Scenario 1d: what a deadline costs an awaited send, on the distinct-actor chain of scenario 1:
/// the same send with `SendOptions(timeout: 30 s)` (never reached) against it with no options.
///
/// A send with a deadline runs its route in a task of its own and schedules one timer on its
/// system's clock, which it removes when the route ends; a send without one does neither.
struct DeadlineSends: Scenario {
    let id = "deadline"
    let title = "1d awaited send with a deadline"

    func run(_ measurer: Measurer) async -> [Row] {
        var rows: [Row] = []
        for depth in [1, 8] {
            let library = ChainActor.chain(depth: depth)
            let samples = await measurer.measure([
                {
                    await AwaitedSendActors.send(
                        library, options: SendOptions(timeout: .seconds(30)), iterations: $0)
                },
                { await AwaitedSendActors.send(library, options: .default, iterations: $0) },
            ])
            rows.append(
                Row(
                    id: id, scenario: "\(title) vs none", depth: depth, hops: Double(depth),
                    library: samples[0], baseline: samples[1], target: .ratioAtMost(1.15),
                    note: "1d: the baseline column is the same send without a deadline"))
        }
        return rows
    }
}

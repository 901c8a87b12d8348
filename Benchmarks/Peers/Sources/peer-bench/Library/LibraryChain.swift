import ResponderChain

/// The library's side: D ``ChainActor``s, each on its own default executor, and an awaited `send`
/// from the bottom one, issued from a task on the global concurrent executor (as responder-bench's
/// scenario 1 does).
struct LibraryChain: Sendable {
    /// What the library's figure is, printed under the table.
    static let note =
        "library: await send(Probe) through D actor responders, each on its own executor, from a "
        + "task on the global concurrent executor: an executor switch at every hop, the outcome back"

    let depth: Int
    private let bottom: ChainActor

    init(depth: Int) {
        self.depth = depth
        bottom = ChainActor.chain(depth: depth)
    }

    /// `iterations` awaited sends, timed where they run. Checks, untimed, that every send was
    /// handled at the top, `depth` hops up.
    @concurrent
    func send(iterations: Int) async -> Timed {
        let stopwatch = Stopwatch()
        var hops = 0
        for index in 0..<iterations {
            let outcome = await bottom.send(Probe(a: index, b: 1, c: 2))
            hops &+= outcome.hops
        }
        let timed = stopwatch.stop(iterations: iterations, checksum: UInt64(hops))
        precondition(hops == iterations * depth, "a send did not reach the top of the chain")
        return timed
    }
}

/// A peer's chain of D stages, made, driven and torn down on ``PeerThread``: the sender is
/// already on the thread the chain lives on.
@PeerThread
protocol PeerChain: AnyObject, Sendable {
    /// A chain of `depth` stages; only the top one consumes ``Probe``.
    init(depth: Int) throws

    /// Sends `iterations` probes in at the bottom, timed. Checks, untimed, that every probe was
    /// consumed at the top.
    func send(iterations: Int) -> Timed

    /// Tears the chain down after its last batch.
    func finish() throws
}

import ResponderChain

/// Marks an event that arrived at this process's ``RemoteEntries`` by an awaited call (a unary
/// `Deliver`, or ``RemoteEntries/reply(to:from:)``), not on an ordered stream of posts.
///
/// Such an event is posted at its entry, from a relay of its own, like every event that arrives;
/// but its sender awaits it, and needs no order. A ``RemoteLink`` further on in this process
/// carries it as an awaited send, in a call of its own, never on the ordered stream of the
/// sender's posts, where it would wait behind them. It never crosses: the registry writes no
/// value of it, and names it nowhere as information left behind.
enum ArrivedAwaited: InfoKey {
    typealias Value = Bool
    static var name: String { "responderchain.arrivedAwaited" }
}

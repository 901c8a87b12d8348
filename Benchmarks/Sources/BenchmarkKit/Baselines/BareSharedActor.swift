import ResponderChain

/// The actor whose executor a group of actors shares (scenario 2), for the library and the
/// baseline alike.
actor Leader {}

/// Baseline for scenario 2: like ``BareActor``, but running on a ``Leader``'s executor, so a
/// forward from one to the next needs no executor switch when the sender is already on it.
actor BareSharedActor {
    private nonisolated let leader: Leader
    private let isTop: Bool
    private var seen = 0
    private var next: BareSharedActor?

    nonisolated var unownedExecutor: UnownedSerialExecutor { leader.unownedExecutor }

    init(leader: Leader, isTop: Bool, next: BareSharedActor?) {
        self.leader = leader
        self.isTop = isTop
        self.next = next
    }

    /// Handles `event` here or forwards it; returns the hop at which it was handled.
    func receive(_ event: any Event, hop: Int) async -> Int {
        if BareHandlerTable.standard.handle(event, isTop: isTop, seen: &seen) == .handled {
            return hop
        }
        guard let next else { return -hop }
        return await next.receive(event, hop: hop + 1)
    }

    /// A chain of `depth` actors on `leader`'s executor; returns the bottom one.
    static func chain(depth: Int, leader: Leader) -> BareSharedActor {
        var current = BareSharedActor(leader: leader, isTop: true, next: nil)
        for _ in 1..<depth { current = BareSharedActor(leader: leader, isTop: false, next: current) }
        return current
    }
}

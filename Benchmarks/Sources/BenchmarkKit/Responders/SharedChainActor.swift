import ResponderChain

/// Library side of scenario 2: an actor responder whose executor is a ``Leader``'s, so hops
/// between members of the chain need no executor switch when the send starts on the leader.
actor SharedChainActor: Responder {
    private nonisolated let leader: Leader
    nonisolated let isTop: Bool
    var seen = 0
    private var link: SharedChainActor?

    nonisolated var unownedExecutor: UnownedSerialExecutor { leader.unownedExecutor }
    var next: (any Responder)? { link }
    nonisolated var isRoot: Bool { isTop }

    init(leader: Leader, isTop: Bool, next: SharedChainActor?) {
        self.leader = leader
        self.isTop = isTop
        self.link = next
    }

    static let strategies = Strategies<SharedChainActor> {
        $0.on(DecoyA.self) { responder, event, _ in responder.take(event.a) }
        $0.on(DecoyB.self) { responder, event, _ in responder.take(event.a) }
        $0.on(DecoyC.self) { responder, event, _ in responder.take(event.a) }
        $0.on(Probe.self) { responder, event, _ in responder.take(event.a) }
    }

    private func take(_ value: Int) -> Disposition {
        seen &+= value
        return isTop ? .handled : .pass
    }

    /// A chain of `depth` responders on `leader`'s executor; returns the bottom one.
    static func chain(depth: Int, leader: Leader) -> SharedChainActor {
        var current = SharedChainActor(leader: leader, isTop: true, next: nil)
        for _ in 1..<depth { current = SharedChainActor(leader: leader, isTop: false, next: current) }
        return current
    }
}

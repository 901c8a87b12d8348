import ResponderChain

/// Library side of scenarios 1, 7 and 8: an actor responder on its own executor with a 4-entry
/// table (three decoys, then ``Probe``); only the top of the chain handles the probe.
actor ChainActor: Responder {
    nonisolated let isTop: Bool
    var seen = 0
    private var link: ChainActor?

    var next: (any Responder)? { link }
    nonisolated var isRoot: Bool { isTop }

    init(isTop: Bool, next: ChainActor?) {
        self.isTop = isTop
        self.link = next
    }

    static let strategies = Strategies<ChainActor> {
        $0.on(DecoyA.self) { responder, event, _ in responder.take(event.a) }
        $0.on(DecoyB.self) { responder, event, _ in responder.take(event.a) }
        $0.on(DecoyC.self) { responder, event, _ in responder.take(event.a) }
        $0.on(Probe.self) { responder, event, _ in responder.take(event.a) }
    }

    private func take(_ value: Int) -> Disposition {
        seen &+= value
        return isTop ? .handled : .pass
    }

    /// A chain of `depth` responders; returns the bottom one (where events start).
    static func chain(depth: Int) -> ChainActor {
        var current = ChainActor(isTop: true, next: nil)
        for _ in 1..<depth { current = ChainActor(isTop: false, next: current) }
        return current
    }
}

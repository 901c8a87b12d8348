import ResponderChain

/// Baseline for scenario 1: a plain actor (its own default executor) that looks the event up in
/// a ``BareHandlerTable`` and forwards it to `next` by hand.
actor BareActor {
    private let isTop: Bool
    private var seen = 0
    private var next: BareActor?

    init(isTop: Bool, next: BareActor?) {
        self.isTop = isTop
        self.next = next
    }

    /// Handles `event` here or forwards it; returns the hop at which it was handled (negative
    /// when it fell off the chain).
    func receive(_ event: any Event, hop: Int) async -> Int {
        if BareHandlerTable.standard.handle(event, isTop: isTop, seen: &seen) == .handled {
            return hop
        }
        guard let next else { return -hop }
        return await next.receive(event, hop: hop + 1)
    }

    /// A chain of `depth` actors; returns the bottom one (where events start).
    static func chain(depth: Int) -> BareActor {
        var current = BareActor(isTop: true, next: nil)
        for _ in 1..<depth { current = BareActor(isTop: false, next: current) }
        return current
    }
}

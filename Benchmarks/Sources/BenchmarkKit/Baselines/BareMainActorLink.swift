import ResponderChain

/// Baseline for scenario 3: a plain `@MainActor` class with an async link to the next one, the
/// same table lookup and handler work as the other baselines.
@MainActor
final class BareMainActorLink {
    private let isTop: Bool
    private var seen = 0
    private var next: BareMainActorLink?

    init(isTop: Bool, next: BareMainActorLink?) {
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

    /// A chain of `depth` links; returns the bottom one.
    static func chain(depth: Int) -> BareMainActorLink {
        var current = BareMainActorLink(isTop: true, next: nil)
        for _ in 1..<depth { current = BareMainActorLink(isTop: false, next: current) }
        return current
    }
}

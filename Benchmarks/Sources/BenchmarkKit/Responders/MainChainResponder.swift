import ResponderChain

/// Library side of scenario 3: a `@MainActor` class responder (``MainActorResponder``) with the
/// same 4-entry table as the other chains.
@MainActor
final class MainChainResponder: MainActorResponder {
    nonisolated let isTop: Bool
    var seen = 0
    private var link: MainChainResponder?

    var next: (any Responder)? { link }
    nonisolated var isRoot: Bool { isTop }

    init(isTop: Bool, next: MainChainResponder?) {
        self.isTop = isTop
        self.link = next
    }

    nonisolated static let strategies = Strategies<MainChainResponder> {
        $0.on(DecoyA.self) { responder, event, _ in responder.take(event.a) }
        $0.on(DecoyB.self) { responder, event, _ in responder.take(event.a) }
        $0.on(DecoyC.self) { responder, event, _ in responder.take(event.a) }
        $0.on(Probe.self) { responder, event, _ in responder.take(event.a) }
    }

    private func take(_ value: Int) -> Disposition {
        seen &+= value
        return isTop ? .handled : .pass
    }

    /// A chain of `depth` responders; returns the bottom one.
    static func chain(depth: Int) -> MainChainResponder {
        var current = MainChainResponder(isTop: true, next: nil)
        for _ in 1..<depth { current = MainChainResponder(isTop: false, next: current) }
        return current
    }
}

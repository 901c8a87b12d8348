import ResponderChain

/// Library side of scenario 7c: ``ChainActor``'s table and shape, with the system given per
/// chain and, optionally, a capture handler for ``Probe`` at the top (it passes, so the event
/// then bubbles exactly as in scenario 1).
actor InterceptingActor: Responder {
    nonisolated let isTop: Bool
    nonisolated let eventSystem: EventSystem
    nonisolated let strategies: Strategies<InterceptingActor>
    var seen = 0
    private var link: InterceptingActor?

    var next: (any Responder)? { link }
    nonisolated var isRoot: Bool { isTop }

    init(isTop: Bool, captures: Bool, system: EventSystem, next: InterceptingActor?) {
        self.isTop = isTop
        self.eventSystem = system
        self.strategies = captures ? Self.capturing : Self.bubbling
        self.link = next
    }

    static let bubbling = Strategies<InterceptingActor> {
        $0.on(DecoyA.self) { responder, event, _ in responder.take(event.a) }
        $0.on(DecoyB.self) { responder, event, _ in responder.take(event.a) }
        $0.on(DecoyC.self) { responder, event, _ in responder.take(event.a) }
        $0.on(Probe.self) { responder, event, _ in responder.take(event.a) }
    }

    static let capturing = Strategies<InterceptingActor> {
        $0 = bubbling
        $0.on(Probe.self, phase: .capture) { responder, event, _ in
            responder.seen &+= event.b
            return .pass
        }
    }

    private func take(_ value: Int) -> Disposition {
        seen &+= value
        return isTop ? .handled : .pass
    }

    /// A chain of `depth` responders in `system`, whose top captures if `topCaptures`; returns
    /// the bottom one (where events start).
    static func chain(depth: Int, system: EventSystem, topCaptures: Bool) -> InterceptingActor {
        var current = InterceptingActor(isTop: true, captures: topCaptures, system: system, next: nil)
        for _ in 1..<depth {
            current = InterceptingActor(isTop: false, captures: false, system: system, next: current)
        }
        return current
    }
}

/// A system wrapper that only calls `next`: the cost of the wrapping itself.
struct PassThroughWrapper: HopMiddleware {
    nonisolated(nonsending) func handle(
        _ event: any Event, at responder: any Responder, context: inout EventContext, next: HopMiddleware.Next
    ) async throws -> Disposition {
        try await next(&context)
    }
}

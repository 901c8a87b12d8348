import ResponderChain
import ResponderChainTesting
import Testing

extension CoreSuites {
    /// The chain Docs/Guide.md grows step by step; if this suite breaks, the Guide is wrong.
    @Suite("Guide walkthrough")
    struct GuideWalkthroughTests {
        @Test("step 1: with no handlers, a send walks the whole chain and ends unhandled at the root")
        func stepOne() async throws {
            let service = GuideService()
            let lineItem = GuideLineItem(
                order: GuideBareOrder(id: 42, session: GuideSession(service: service)))

            let outcome = await lineItem.send(ItemAdded(sku: "A-1"))

            #expect(outcome.description == "unhandled at root GuideService after 4 hops")
        }

        @Test("steps 2–4: the order handles, decorates and continues; the outcome reports it")
        func stepsTwoToFour() async throws {
            let service = GuideService()
            let order = GuideOrder(id: 42, session: GuideSession(service: service))
            let lineItem = GuideLineItem(order: order)

            let outcome = await lineItem.send(ItemAdded(sku: "A-1"))

            #expect(outcome.description == "handled by GuideOrder after 4 hops")
            let handled = try #require(outcome.handledDetails)
            #expect(handled.handlers == [ResponderID(order)])
            #expect(handled.stoppedAt == ResponderID(service))
            #expect(handled.info[GuideOrderID.self] == 42)
            #expect(await order.items == ["A-1"])
        }
    }
}

private enum GuideOrderID: InfoKey { typealias Value = Int }

private actor GuideService: Responder {
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }
}

private actor GuideSession: Responder {
    let service: GuideService
    init(service: GuideService) { self.service = service }
    var next: (any Responder)? { service }
}

private actor GuideBareOrder: Responder {
    let id: Int
    let session: GuideSession
    init(id: Int, session: GuideSession) {
        self.id = id
        self.session = session
    }
    var next: (any Responder)? { session }
}

private actor GuideOrder: Responder {
    let id: Int
    let session: GuideSession
    var items: [String] = []
    init(id: Int, session: GuideSession) {
        self.id = id
        self.session = session
    }
    var next: (any Responder)? { session }

    static let strategies = Strategies<GuideOrder> {
        $0.on(ItemAdded.self) { order, event, context in
            order.items.append(event.sku)
            context.info[GuideOrderID.self] = order.id
            return .handledAndContinue
        }
    }
}

private actor GuideLineItem: Responder {
    let order: any Responder
    init(order: any Responder) { self.order = order }
    var next: (any Responder)? { order }
}

import ResponderChain
import ResponderChainTesting
import Testing

/// What the store suites post and send.
struct PlaceOrder: Event {}

/// What a pricing step throws.
enum PricingError: Error, Equatable {
    case outOfStock
}

@Suite("Test store", .timeLimit(.minutes(1)))
struct TestStoreTests {
    @Test("a test that asserts everything the store recorded finishes without an issue")
    func everythingAsserted() async {
        let store = TestStore()
        let root = Probe("Orders", .handle, root: true, system: store.system)
        let pricing = Probe("Pricing", .fail(PricingError.outOfStock), system: store.system)

        let sent = await store.send(PlaceOrder(), from: root)
        #expect(sent.isHandled)
        await root.post(PlaceOrder())
        await store.receiveOutcome(.handled, of: PlaceOrder.self)
        await pricing.post(PlaceOrder())
        let letter = await store.receiveDeadLetter(.failed, of: PlaceOrder.self)
        #expect(letter?.outcome.failedError(as: PricingError.self) == .outOfStock)

        await store.finish()
    }

    @Test("finish names a dead letter nobody asserted")
    func namesADeadLetter() async {
        let store = TestStore()
        let pricing = Probe("Pricing", .fail(PricingError.outOfStock), system: store.system)
        let ticket = await pricing.post(PlaceOrder())
        _ = await ticket.outcome

        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue
                    == "1 dead letter not asserted: PlaceOrder, failed at Pricing (PricingError.outOfStock)"
            }
        }
    }
}

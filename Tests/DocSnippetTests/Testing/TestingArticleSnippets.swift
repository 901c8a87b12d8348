// swift-format-ignore-file
// Docs/Testing.md's Swift blocks, verbatim (checked by DocSnippetTests), and the suite that runs
// each step of the article: the order service tested on the store, in virtual time.

import ResponderChain
import ResponderChainTesting
import Testing

// snippet: Docs/Testing.md 1
struct PlaceOrder: Event { let id: Int; let sku: String }

enum PricingError: Error { case outOfStock }

/// The root: places every order that reaches it.
actor OrderDesk: Responder {
    nonisolated let eventSystem: EventSystem
    private(set) var placed: [Int] = []
    init(system: EventSystem) { eventSystem = system }
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<OrderDesk> {
        $0.on(PlaceOrder.self) { desk, order, _ in
            desk.placed.append(order.id)
            return .handled
        }
    }
}

/// Prices each order on its way to the desk.
actor Pricing: Responder {
    nonisolated let eventSystem: EventSystem
    let desk: OrderDesk
    let stock: Set<String>
    init(desk: OrderDesk, stock: Set<String>) {
        self.desk = desk
        self.stock = stock
        eventSystem = desk.eventSystem
    }
    var next: (any Responder)? { desk }

    static let strategies = Strategies<Pricing> {
        $0.on(PlaceOrder.self) { pricing, order, _ in
            try await pricing.eventSystem.clock.sleep(for: .seconds(2))   // the supplier answers
            guard pricing.stock.contains(order.sku) else { throw PricingError.outOfStock }
            return .pass                                                  // priced: on to the desk
        }
    }
}
// end snippet

/// Docs/Testing.md, step by step: the order service on a `TestStore`, every timer on its manual
/// clock, every outcome and dead letter asserted.
@Suite("The order service on the store", .timeLimit(.minutes(1)))
struct OrderServiceStoreTests {
    @Test("a send through the store is asserted by the send itself, and finish finds nothing left")
    func plainSend() async {
        // snippet: Docs/Testing.md 2
        let store = TestStore()
        let desk = OrderDesk(system: store.system)

        let outcome = await store.send(PlaceOrder(id: 1, sku: "A-1"), from: desk)
        #expect(outcome.handledDetails?.stoppedAt == ResponderID(desk))

        await store.finish()
        // end snippet
    }

    @Test("a deadline shorter than the supplier's answer ends the send timed out at Pricing, in virtual time")
    func deadline() async {
        // snippet: Docs/Testing.md 3
        let store = TestStore()
        let pricing = Pricing(desk: OrderDesk(system: store.system), stock: ["A-1"])

        async let sent = store.send(
            PlaceOrder(id: 2, sku: "A-1"), from: pricing, options: SendOptions(timeout: .seconds(1)))
        await store.waitForTimers(2)             // the send's deadline, and the supplier's 2 seconds
        await store.advance(by: .seconds(1))     // the deadline passes; returns once the send has ended

        let timedOut = await sent.timedOutDetails
        #expect(timedOut?.responder == ResponderID(pricing))
        #expect(timedOut?.whileHandling == true)
        await store.finish()
        // end snippet
    }

    @Test("an order out of stock, posted, fails at Pricing and is dead-lettered with the pricing error")
    func failingPost() async {
        // snippet: Docs/Testing.md 4
        let store = TestStore()
        let pricing = Pricing(desk: OrderDesk(system: store.system), stock: ["A-1"])

        await pricing.post(PlaceOrder(id: 3, sku: "Z-9"))
        await store.waitForTimers(1)             // the supplier is asked
        await store.advance(by: .seconds(2))     // and answers: out of stock

        let letter = await store.receiveDeadLetter(.failed, of: PlaceOrder.self)
        #expect(letter?.outcome.failedError(as: PricingError.self) == .outOfStock)
        await store.finish()
        // end snippet
    }

    @Test(
        "at a shutdown, the order priced within the grace period is placed and the one still being priced is cut short and dead-lettered"
    )
    func shutdownWithPostsInFlight() async {
        // snippet: Docs/Testing.md 5
        let store = TestStore()
        let desk = OrderDesk(system: store.system)
        let pricing = Pricing(desk: desk, stock: ["A-1"])

        await pricing.post(PlaceOrder(id: 4, sku: "A-1"))
        await pricing.post(PlaceOrder(id: 5, sku: "A-1"))   // queued behind order 4
        await store.waitForTimers(1)                        // order 4 is being priced
        await store.shutDown(gracePeriod: .seconds(3))

        await store.advance(by: .seconds(2))                // order 4 is priced, and placed
        await store.receiveOutcome(.handled, of: PlaceOrder.self)
        await store.waitForTimers(2)                        // order 5 is being priced
        await store.advance(by: .seconds(1))                // the grace period ends

        let cutShort = await store.receiveDeadLetter(.cancelled, of: PlaceOrder.self)
        #expect(cutShort?.outcome.cancelledDetails?.reason == .shutdown)
        await store.receiveShutdownReport(EventSystem.ShutdownReport(finished: 1, endedEarly: 1, refused: 0))
        #expect(await desk.placed == [4])
        await store.finish()
        // end snippet
    }

    @Test("finish names the dead letter of a post whose ending the test awaited but did not assert")
    func forgottenDeadLetter() async {
        let store = TestStore()
        let pricing = Pricing(desk: OrderDesk(system: store.system), stock: ["A-1"])

        let ticket = await pricing.post(PlaceOrder(id: 3, sku: "Z-9"))
        await store.waitForTimers(1)
        await store.advance(by: .seconds(2))
        _ = await ticket.outcome

        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.contains {
                $0.rawValue == "1 dead letter not asserted: PlaceOrder, failed at Pricing (PricingError.outOfStock)"
            }
        }
    }

    @Test("finish names the supplier's timer, and the post waiting for it, when the test never moves the clock")
    func forgottenTimer() async {
        let store = TestStore()
        let pricing = Pricing(desk: OrderDesk(system: store.system), stock: ["A-1"])

        let ticket = await pricing.post(PlaceOrder(id: 3, sku: "A-1"))
        await store.waitForTimers(1)

        await withKnownIssue {
            await store.finish()
        } matching: { issue in
            issue.comments.contains {
                [
                    "1 timer still scheduled: a sleep at 2.0 seconds",
                    "1 post still queued or being delivered",
                ].contains($0.rawValue)
            }
        }
        await store.run()  // let the post end before the test does
        _ = await ticket.outcome
    }

    @Test("with exhaustivity off, finish checks only what the test asserted")
    func exhaustivityOff() async {
        // snippet: Docs/Testing.md 6
        let store = TestStore(exhaustivity: .off)
        let desk = OrderDesk(system: store.system)
        let pricing = Pricing(desk: desk, stock: ["A-1"])

        await pricing.post(PlaceOrder(id: 6, sku: "Z-9"))   // fails: not what this test is about
        await store.waitForTimers(1)
        await store.advance(by: .seconds(2))
        let placed = await store.send(PlaceOrder(id: 7, sku: "A-1"), from: desk)
        #expect(placed.isHandled)
        await store.finish()                                // order 6's dead letter is not asked for
        // end snippet
    }
}

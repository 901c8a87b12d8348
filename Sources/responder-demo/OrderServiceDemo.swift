import ResponderChain

/// The order-processing service scenario (core only): async actors, no UI.
///
/// ```
///   LineItem(A-1) ─┐
///   LineItem(B-7) ─┼─next─▶ Order #1042 ──next──▶ CustomerSession(ann) ──next──▶ OrderService (root)
///   LineItem(C-3) ─┘          │ decorates OrderNumber     decorates CustomerID        audits, bills
///                             └─ OrderEvents (the event proxy beside the order)
///
///   PaymentGateway (not a responder) ──Relay──▶ CustomerSession
///
///   capture: CustomerSession sees QuantityChanged first (and stops it during checkout)
///   wrapper: Authorization, around every hop, refuses refunds at OrderService without a role
/// ```
///
/// Every responder uses the process-wide system (bootstrapped in `main.swift`): it prints each event's path hop by hop (`PrintingTracer`)
/// and reports dead letters. Each step then prints the outcome the sender got back.
enum OrderServiceDemo {
    static func run() async {
        print("== Order service ==")
        let service = OrderService()
        let session = CustomerSession(customer: "ann", service: service)
        let order = Order(number: 1042, session: session)
        let apples = LineItem(sku: "A-1", unitPrice: 120, order: order)
        let bread = LineItem(sku: "B-7", unitPrice: 350, order: order)
        let coffee = LineItem(sku: "C-3", unitPrice: 899, order: order)
        for item in [apples, bread, coffee] { await order.add(item) }

        await step(
            "a line item changes its quantity: the order updates its total, decorates, continues to the audit"
        ) {
            await apples.changeQuantity(to: 3)
        }
        await step("a coupon is applied: the order's event proxy handles it and stops it") {
            await bread.send(CouponApplied(code: "SPRING10"))
        }
        await step("the customer asks for gift wrap: nobody handles it, it reaches the root → dead letter") {
            await coffee.send(GiftWrapRequested(note: "Happy birthday"))
        }
        await step("removing an item the order does not hold: the proxy's handler throws") {
            await bread.send(ItemRemoved(sku: "Z-9"))
        }
        await step("the payment gateway (off the chain) confirms payment through a relay at the session") {
            await PaymentGateway(relay: Relay(entry: session, label: "PaymentGateway"))
                .confirm(order: 1042, amount: await order.total)
        }
        print("\n-- the shopper taps + three times: posted, not awaited; delivered in post order")
        var tickets: [Ticket] = []
        for quantity in 4...6 {
            tickets.append(await apples.post(QuantityChanged(sku: "A-1", quantity: quantity)))
        }
        for (quantity, ticket) in zip(4...6, tickets) {
            print("   → quantity \(quantity): \(await ticket.outcome)")
        }
        await step("a change whose deadline has already passed stops before its first hop") {
            await bread.send(
                QuantityChanged(sku: "B-7", quantity: 2),
                options: SendOptions(deadline: EventSystem.default.now - .seconds(1)))
        }
        await step("a refund without the support role: the authorization wrapper refuses it at the service") {
            await bread.send(RefundRequested(order: 1042, amountInCents: 350))
        }
        await step("the same refund sent as support passes the wrapper and is handled") {
            var support = SendOptions()
            support.info[Role.self] = "support"
            return await bread.send(RefundRequested(order: 1042, amountInCents: 350), options: support)
        }
        await session.beginCheckout()
        await step("checkout began: the session captures a quantity change before the line item sees it") {
            await apples.changeQuantity(to: 10)
        }
        await order.remove(coffee)
        await step("a line item removed from the order still sends: its chain is broken → interrupted") {
            await coffee.changeQuantity(to: 2)
        }

        print(
            "\n-- the service shuts down: what was posted finishes in the grace period; later posts are refused"
        )
        let lastTaps = [
            await apples.post(QuantityChanged(sku: "A-1", quantity: 7)),
            await apples.post(QuantityChanged(sku: "A-1", quantity: 8)),
        ]
        let report = await EventSystem.default.shutDown(gracePeriod: .seconds(5))
        let late = await apples.post(QuantityChanged(sku: "A-1", quantity: 9))
        for ticket in lastTaps + [late] {
            print("   → \(await ticket.outcome)")
        }
        print("   → shutdown: \(report); refused since: \(await late.outcome.kind)")

        print("\n-- the service audited: \(await service.audit.joined(separator: "; "))")
        print("-- dead letters: \(await OrderServiceSystem.deadLetters.count)")
    }

    /// Prints a title, runs one send (its trace prints as it finishes), then the outcome.
    private static func step(_ title: String, _ send: () async -> Outcome) async {
        print("\n-- \(title)")
        let outcome = await send()
        print("   → \(outcome)")
    }
}

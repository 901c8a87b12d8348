// swift-format-ignore-file
// Docs/Guide.md's Swift blocks of steps 1–5, verbatim (checked by DocSnippetTests); the regions
// keep the Guide's own layout, so swift-format leaves this file alone.
//
// The steps grow one example, so a later step declares a type again (the order of step 2 is the
// order of step 1 with a table): each step's types live in a namespace of their own, where they
// shadow the earlier ones, and the blocks that hold statements sit in functions that are compiled,
// never called.

import ResponderChain

/// The Guide's chain (step 1), and a namespace per later step.
enum Guide {
    // snippet: Docs/Guide.md 1
    struct ItemAdded: Event { let sku: String }

    actor OrderService: Responder {
        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }
    }

    actor CustomerSession: Responder {
        let service: OrderService
        init(service: OrderService) { self.service = service }
        var next: (any Responder)? { service }
    }

    actor Order: Responder {
        let id: Int
        let session: CustomerSession
        init(id: Int, session: CustomerSession) { self.id = id; self.session = session }
        var next: (any Responder)? { session }              // read live, at every hop
    }

    actor LineItem: Responder {
        let order: Order
        init(order: Order) { self.order = order }
        var next: (any Responder)? { order }
    }
    // end snippet
}

extension Guide {
    static func stepOne() async {
        // snippet: Docs/Guide.md 2
        let service = OrderService()
        let lineItem = LineItem(order: Order(id: 42, session: CustomerSession(service: service)))

        let outcome = await lineItem.send(ItemAdded(sku: "A-1"))
        print(outcome)      // unhandled at root OrderService after 4 hops
        // end snippet
    }
}

extension Guide {
    enum StepTwo {
        // snippet: Docs/Guide.md 3
        actor Order: Responder {
            let id: Int
            let session: CustomerSession
            var items: [String] = []
            init(id: Int, session: CustomerSession) { self.id = id; self.session = session }
            var next: (any Responder)? { session }

            static let strategies = Strategies<Order> {
                $0.on(ItemAdded.self) { order, event, context in
                    order.items.append(event.sku)
                    return .handledAndContinue        // handled here, and the service should see it too
                }
            }
        }
        // end snippet
    }
}

extension Guide {
    // snippet: Docs/Guide.md 4
    enum OrderID: InfoKey { typealias Value = Int }
    // end snippet

    enum StepThree {
        /// Step 3's handler, an entry of step 2's order's table.
        static let strategies = Strategies<StepTwo.Order> {
            // snippet: Docs/Guide.md 5
            $0.on(ItemAdded.self) { order, event, context in
                order.items.append(event.sku)
                context.info[OrderID.self] = order.id              // visible to every hop above
                return .handledAndContinue
            }
            // end snippet
        }

        // snippet: Docs/Guide.md 6
        enum CustomerID: InfoKey { typealias Value = String }

        actor Session: Responder {
            let customerID: String
            let service: OrderService
            init(customerID: String, service: OrderService) { self.customerID = customerID; self.service = service }
            var next: (any Responder)? { service }

            static let strategies = Strategies<Session> {
                $0.on(ItemAdded.self) { session, event, context in
                    context.info[CustomerID.self] = session.customerID   // decorate…
                    return .pass                                        // …and pass on: not a handler
                }
            }
        }
        // end snippet
    }

    static func stepThreeStartingInformation(lineItem: LineItem) async {
        // snippet: Docs/Guide.md 7
        enum RequestID: InfoKey { typealias Value = String }

        var options = SendOptions()
        options.info[RequestID.self] = "req-7"
        await lineItem.send(ItemAdded(sku: "A-1"), options: options)
        // end snippet
    }
}

extension Guide {
    static func stepFour(lineItem: LineItem) async {
        // snippet: Docs/Guide.md 8
        switch await lineItem.send(ItemAdded(sku: "A-1")) {
        case .handled(let handled):     print(handled.handlers, handled.hops, handled.stoppedAt)
        case .unhandled(let unhandled): print("nobody handled it; root was", unhandled.root)
        case .interrupted(let broken):  print("chain broke after", broken.lastReached)
        case .failed(let failure):      print(failure.responder, "threw", failure.error)
        default:                        break    // cycleDetected, cancelled, timedOut, …
        }
        // end snippet
    }
}

extension Guide {
    enum StepFive {
        // snippet: Docs/Guide.md 9
        struct CouponApplied: Event { let code: String }

        actor OrderEvents: Responder {                      // the proxy: any responder, its own table
            private(set) var coupons: [String] = []
            var next: (any Responder)? { nil }              // never used: the event goes on from the order

            static let strategies = Strategies<OrderEvents> {
                $0.on(CouponApplied.self) { events, coupon, context in
                    events.coupons.append(coupon.code)
                    return .handled
                }
            }
        }

        actor Order: Responder {
            let session: CustomerSession
            let events = OrderEvents()
            var items: [String] = []
            init(session: CustomerSession) { self.session = session }
            var next: (any Responder)? { session }

            static let strategies = Strategies<Order> {
                $0.on(ItemAdded.self) { order, event, context in
                    order.items.append(event.sku)
                    return .handledAndContinue
                }
                $0.proxy { $0.events }                   // asked for events this table has no entry for
            }
        }

        actor OrderService: Responder {
            private(set) var audit: [String] = []
            var next: (any Responder)? { nil }
            nonisolated var isRoot: Bool { true }

            static let strategies = Strategies<OrderService> {
                $0.onAnyEvent { service, event, context in  // every event that reaches the root
                    service.audit.append(event.traceName)
                    return .handled
                }
            }
        }
        // end snippet

        // snippet: Docs/Guide.md 10
        actor Promotion: Responder {
            nonisolated let strategies: Strategies<Promotion>   // this instance's own table
            let session: CustomerSession
            var next: (any Responder)? { session }

            init(session: CustomerSession, strategies: Strategies<Promotion>) {
                self.session = session
                self.strategies = strategies
            }
        }
        // end snippet

        static func perInstance(session: CustomerSession) async {
            // snippet: Docs/Guide.md 11
            let freeGift = Promotion(session: session, strategies: Strategies {
                $0.on(ItemAdded.self) { _, _, _ in .handled }
            })
            let plain = Promotion(session: session, strategies: Strategies())

            await freeGift.send(ItemAdded(sku: "A-1"))      // handled by this promotion
            await plain.send(ItemAdded(sku: "A-1"))         // passed on to the session
            // end snippet
        }
    }
}

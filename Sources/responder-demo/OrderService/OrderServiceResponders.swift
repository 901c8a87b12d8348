import ResponderChain

/// The top of the chain: a root that audits what reaches it, bills confirmed payments and
/// refunds (refunds only for the support team: see `Authorization`).
actor OrderService: SupportOnly {
    private(set) var audit: [String] = []
    var next: (any Responder)? { nil }
    nonisolated var isRoot: Bool { true }

    static let strategies = Strategies<OrderService> {
        $0.on(QuantityChanged.self) { service, event, context in
            let order = context.info[OrderNumber.self].map { "#\($0)" } ?? "?"
            service.audit.append("\(order) \(event.sku)×\(event.quantity)")
            return .handled
        }
        $0.on(PaymentConfirmed.self) { service, event, context in
            let customer = context.info[CustomerID.self] ?? "?"
            service.audit.append("paid #\(event.order) \(event.amountInCents)¢ by \(customer)")
            return .handled
        }
        $0.on(RefundRequested.self) { service, event, context in
            service.audit.append("refunded #\(event.order) \(event.amountInCents)¢")
            return .handled
        }
    }
}

/// One customer's session: it adds the customer to every event going up, and during checkout
/// it captures quantity changes before the line items below it see them.
actor CustomerSession: Responder {
    let customer: String
    let service: OrderService
    private(set) var isCheckingOut = false
    var next: (any Responder)? { service }

    func beginCheckout() { isCheckingOut = true }

    init(customer: String, service: OrderService) {
        self.customer = customer
        self.service = service
    }

    static let strategies = Strategies<CustomerSession> {
        // The capture pass: seen before the line item and the order, and stopped during checkout.
        $0.on(QuantityChanged.self, phase: .capture) { session, _, _ in
            session.isCheckingOut ? .handled : .pass
        }
        $0.onAnyEvent { session, _, context in
            context.info[CustomerID.self] = session.customer
            return .pass
        }
    }
}

/// An order: it handles quantity changes itself and hands coupons and removals to its proxy.
actor Order: Responder {
    let number: Int
    let session: CustomerSession
    private var unitPrices: [String: Int] = [:]
    private var quantities: [String: Int] = [:]
    private var items: [String: LineItem] = [:]
    /// The event-handling object beside the order (the "E" of MVCE).
    private lazy var events = OrderEvents(order: self)

    var next: (any Responder)? { session }
    nonisolated var label: String { "Order(#\(number))" }

    init(number: Int, session: CustomerSession) {
        self.number = number
        self.session = session
    }

    /// The order's total, in cents.
    var total: Int { quantities.reduce(0) { $0 + $1.value * (unitPrices[$1.key] ?? 0) } }

    func add(_ item: LineItem) {
        items[item.sku] = item
        unitPrices[item.sku] = item.unitPrice
        quantities[item.sku] = 1
    }

    func remove(_ item: LineItem) async {
        items[item.sku] = nil
        quantities[item.sku] = nil
        await item.detach()
    }

    func holds(_ sku: String) -> Bool { items[sku] != nil }

    static let strategies = Strategies<Order> {
        $0.on(QuantityChanged.self) { order, event, context in
            order.quantities[event.sku] = event.quantity
            context.info[OrderNumber.self] = order.number
            context.info[OrderTotal.self] = order.total
            return .handledAndContinue  // the service audits it too
        }
        $0.proxy { $0.events }
    }
}

/// The order's event proxy: a separate object with its own strategy table.
actor OrderEvents: Responder {
    unowned let order: Order
    private(set) var coupons: [String] = []

    init(order: Order) { self.order = order }

    /// A proxy's `next` is never used: the event goes on from the order.
    var next: (any Responder)? { nil }

    static let strategies = Strategies<OrderEvents> {
        $0.on(CouponApplied.self) { events, coupon, context in
            events.coupons.append(coupon.code)
            context.info[OrderNumber.self] = events.order.number
            return .handled
        }
        $0.on(ItemRemoved.self) { events, removal, _ in
            guard await events.order.holds(removal.sku) else { throw OrderError.noSuchItem(removal.sku) }
            return .handled
        }
    }
}

/// A line of the order: it sends events about itself.
actor LineItem: Responder {
    let sku: String
    let unitPrice: Int
    private var order: Order?

    var next: (any Responder)? { order }
    nonisolated var label: String { "LineItem(\(sku))" }

    init(sku: String, unitPrice: Int, order: Order) {
        self.sku = sku
        self.unitPrice = unitPrice
        self.order = order
    }

    /// Leaves the order: the item is now a broken chain of its own.
    func detach() { order = nil }

    func changeQuantity(to quantity: Int) async -> Outcome {
        await send(QuantityChanged(sku: sku, quantity: quantity))
    }

    static let strategies = Strategies<LineItem> {
        $0.onAnyEvent { item, _, context in
            context.info[LineSKU.self] = item.sku
            return .pass
        }
    }
}

/// The payment provider's callback handler: not a responder, so it injects through a relay.
struct PaymentGateway {
    let relay: Relay

    func confirm(order: Int, amount: Int) async -> Outcome {
        await relay.send(PaymentConfirmed(order: order, amountInCents: amount))
    }
}

import ResponderChain

// The events of the order service, and the typed information hops add to them.

/// A line item's quantity changed.
struct QuantityChanged: Event {
    let sku: String
    let quantity: Int
}

/// A coupon code was entered for the order.
struct CouponApplied: Event { let code: String }

/// An item should leave the order.
struct ItemRemoved: Event { let sku: String }

/// The customer asked for gift wrapping (nobody in this service handles it).
struct GiftWrapRequested: Event { let note: String }

/// The payment provider confirmed a payment (sent from outside the chain, through a relay).
struct PaymentConfirmed: Event {
    let order: Int
    let amountInCents: Int
}

/// Added by the order for every event that passes through it.
enum OrderNumber: InfoKey { typealias Value = Int }

/// Added by the line item that sent the event.
enum LineSKU: InfoKey { typealias Value = String }

/// Added by the customer session.
enum CustomerID: InfoKey { typealias Value = String }

/// Added by the order: its new total, in cents.
enum OrderTotal: InfoKey { typealias Value = Int }

/// What the order's handlers throw.
enum OrderError: Error, CustomStringConvertible {
    case noSuchItem(String)

    var description: String {
        switch self {
        case .noSuchItem(let sku): return "OrderError.noSuchItem(\(sku))"
        }
    }
}

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

/// A refund of an order was asked for (only the support team may).
struct RefundRequested: Event {
    let order: Int
    let amountInCents: Int
}

/// Who is acting: set by the sender in `SendOptions.info`, checked by the authorization wrapper.
enum Role: InfoKey { typealias Value = String }

/// What the authorization wrapper throws.
struct NotAuthorized: Error, CustomStringConvertible {
    let responder: ResponderID
    var description: String { "NotAuthorized(\(responder.label) needs the support role)" }
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

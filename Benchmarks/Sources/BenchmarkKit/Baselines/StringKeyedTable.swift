/// Baseline for scenario 5: the classic strategy table, a `[String: handler]` dictionary looked
/// up by the event's name at every hop (the `routerEventWithName:` / EventProxy technique).
struct StringKeyedTable: Sendable {
    typealias Handler = @Sendable (Int) -> Int

    /// Names as an app would write them (longer than 15 UTF-8 bytes, so not small strings).
    static let names = [
        "ProductCell.addToCartTapped", "ProductCell.favouriteTapped",
        "CheckoutView.payButtonTapped", "OrderList.refreshRequested",
    ]

    private let handlers: [String: Handler]

    /// A table with a handler for each of ``names``.
    init() {
        var handlers: [String: Handler] = [:]
        for (offset, name) in Self.names.enumerated() {
            handlers[name] = { $0 &+ offset }
        }
        self.handlers = handlers
    }

    /// Whether the table has a handler for `name`.
    @inline(never)
    func handles(_ name: String) -> Bool {
        handlers[name] != nil
    }
}

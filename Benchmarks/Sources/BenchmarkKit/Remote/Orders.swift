#if RemoteAndStores
    import ResponderChain
    import ResponderChainGRPC

    /// The event every remote path carries: a small `Codable` order, as an application would send.
    struct PlaceOrder: Event, Codable, Equatable {
        var sku: String
        var quantity: Int
    }

    /// Information the sender adds; it crosses to the backend and comes back in the outcome.
    enum CustomerID: InfoKey { typealias Value = String }
    /// Information the backend's entry adds; it comes back in the outcome.
    enum Reservation: InfoKey { typealias Value = Int }

    /// The names both sides register (the same registry on each side, as two processes would).
    func benchRegistry() -> RemoteRegistry {
        var registry = RemoteRegistry()
        do {
            try registry.register(PlaceOrder.self, as: "orders.place")
            try registry.register(info: CustomerID.self, as: "customer-id")
            try registry.register(info: Reservation.self, as: "reservation")
        } catch {
            fatalError("the bench registry: \(error)")
        }
        return registry
    }

    /// The order every send carries, and what the backend reserves for it.
    enum Order {
        static let event = PlaceOrder(sku: "SKU-A-1042", quantity: 3)
        static let customer = "customer-8812"

        /// A send's options: the customer's ID as information that crosses.
        static let options: SendOptions = {
            var options = SendOptions()
            options.info[CustomerID.self] = customer
            return options
        }()

        /// Whether `outcome` is the whole path's: handled at the backend's entry, after the front's
        /// hop and the link's, with the backend's information and the sender's.
        static func check(_ outcome: Outcome) throws(BenchFailure) {
            guard case .handled(let handled) = outcome, handled.stoppedAt.label == EntryResponder.label,
                handled.hops == 3, handled.info[Reservation.self] == event.quantity,
                handled.info[CustomerID.self] == customer
            else { throw BenchFailure("the remote hop did not end handled at the entry: \(outcome)") }
        }
    }
#endif

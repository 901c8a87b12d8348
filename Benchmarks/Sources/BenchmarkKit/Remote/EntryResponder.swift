#if RemoteAndStores
    import ResponderChain

    /// The backend's entry: it handles the order and adds a reservation to the event's
    /// information, which travels back in the outcome.
    actor EntryResponder: Responder {
        static let label = "entry"
        nonisolated var label: String { Self.label }
        nonisolated let eventSystem: EventSystem

        init(system: EventSystem) {
            self.eventSystem = system
        }

        var next: (any Responder)? { nil }

        static let strategies = Strategies<EntryResponder> {
            $0.on(PlaceOrder.self) { _, order, context in
                context.info[Reservation.self] = order.quantity
                return .handled
            }
        }
    }
#endif

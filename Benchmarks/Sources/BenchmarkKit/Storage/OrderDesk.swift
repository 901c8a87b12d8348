#if RemoteAndStores
    import ResponderChain

    /// The root of the stored-posts scenario's chain: counts the orders it handles.
    actor OrderDesk: Responder {
        nonisolated let eventSystem: EventSystem
        private(set) var handled = 0

        init(system: EventSystem) { self.eventSystem = system }

        var next: (any Responder)? { nil }
        nonisolated var isRoot: Bool { true }

        static let strategies = Strategies<OrderDesk> {
            $0.on(StoredOrder.self) { desk, _, _ in
                desk.handled += 1
                return .handled
            }
        }
    }
#endif

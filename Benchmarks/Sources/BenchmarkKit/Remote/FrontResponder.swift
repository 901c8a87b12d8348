#if RemoteAndStores
    import ResponderChain
    import ResponderChainGRPC

    /// The sending process's responder: it passes the order on to its `next`, the remote link.
    /// Each front responder is one sender: its posts are delivered one after another by its lane.
    actor FrontResponder: Responder {
        nonisolated let label: String
        nonisolated let eventSystem: EventSystem
        private let link: RemoteLink

        init(_ label: String, link: RemoteLink, system: EventSystem) {
            self.label = label
            self.link = link
            self.eventSystem = system
        }

        var next: (any Responder)? { link }

        static let strategies = Strategies<FrontResponder> {
            $0.on(PlaceOrder.self) { _, _, _ in .pass }
        }
    }
#endif

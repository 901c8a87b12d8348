#if RemoteAndStores
    import ResponderChain

    /// A sender of the stored-posts scenario (an HTTP handler's responder, say): its posts go up to
    /// the ``OrderDesk``. Registered under a name, so that a durable system can store its posts.
    actor OrderPoster: Responder {
        nonisolated let eventSystem: EventSystem
        private let desk: OrderDesk

        init(desk: OrderDesk, system: EventSystem) {
            self.desk = desk
            self.eventSystem = system
        }

        var next: (any Responder)? { desk }
    }
#endif

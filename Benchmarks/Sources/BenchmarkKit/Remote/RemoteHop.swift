#if RemoteAndStores
    import ResponderChain
    import ResponderChainGRPC
    import Synchronization

    /// The remote hop's sending side: front responders whose `next` is a ``RemoteLink`` to the
    /// backend's entry. Every outcome is checked (``Order/check(_:)``).
    struct RemoteHop: Sendable {
        /// Over gRPC (``GRPCRemoteTransport`` to a ``RemoteChainServer``): one front per sender,
        /// all through the same link.
        let fronts: [FrontResponder]
        /// Through an ``InProcessTransport`` to the same entries: the library's side of the hop
        /// (the wire format both ways, the registry, the backend's posting) without a network.
        let inProcessFront: FrontResponder

        /// The backend: an entry in its own system, exposed under "orders". The entries hold their
        /// responders weakly: keep the entry for as long as the entries are used.
        static func backend() -> (entries: RemoteEntries, entry: EntryResponder) {
            let entry = EntryResponder(system: EventSystem())
            return (RemoteEntries(["orders": entry], registry: benchRegistry()), entry)
        }

        /// A front responder in `system` whose link reaches `entries` through an
        /// ``InProcessTransport``.
        static func inProcessFront(to entries: RemoteEntries, system: EventSystem) -> FrontResponder {
            let link = RemoteLink(
                entry: "orders", transport: InProcessTransport(entries, peer: "front"),
                registry: benchRegistry(),
                system: system)
            return FrontResponder("front", link: link, system: system)
        }

        /// `iterations` awaited sends from `front`, one after another.
        static func send(from front: FrontResponder, iterations: Int) async throws -> Timed {
            let stopwatch = Stopwatch()
            for _ in 0..<iterations {
                try Order.check(await front.send(Order.event, options: Order.options))
            }
            return stopwatch.stop(iterations: iterations)
        }

        /// `iterations` awaited sends from `front` by `callers` concurrent callers, each making its
        /// sends one after another: `callers` sends in flight at once.
        static func send(from front: FrontResponder, iterations: Int, callers: Int) async throws -> Timed {
            let stopwatch = Stopwatch()
            try await withThrowingDiscardingTaskGroup { group in
                for caller in 0..<min(callers, iterations) {
                    group.addTask {
                        for _ in stride(from: caller, to: iterations, by: callers) {
                            try Order.check(await front.send(Order.event, options: Order.options))
                        }
                    }
                }
            }
            return stopwatch.stop(iterations: iterations)
        }

        /// `iterations` events posted by `senders` fronts concurrently (each front one lane, its
        /// posts delivered one after another), timed until every ticket has its outcome.
        func post(iterations: Int, senders: Int) async throws -> Timed {
            let stopwatch = Stopwatch()
            try await withThrowingDiscardingTaskGroup { group in
                for sender in 0..<senders {
                    let front = fronts[sender]
                    group.addTask {
                        var tickets: [Ticket] = []
                        tickets.reserveCapacity(iterations / senders + 1)
                        for _ in stride(from: sender, to: iterations, by: senders) {
                            tickets.append(await front.post(Order.event, options: Order.options))
                        }
                        for ticket in tickets { try Order.check(await ticket.outcome) }
                    }
                }
            }
            return stopwatch.stop(iterations: iterations)
        }
    }

    /// A transport that hands requests to another and keeps the first request and reply: the exact
    /// payload the baselines then carry.
    final class CapturingTransport: RemoteTransport {
        private let inner: any RemoteTransport
        private let captured = Mutex<(RemoteRequest, RemoteReply)?>(nil)

        init(_ inner: any RemoteTransport) {
            self.inner = inner
        }

        /// The first request delivered, and its reply.
        var first: (request: RemoteRequest, reply: RemoteReply)? {
            captured.withLock { $0.map { (request: $0.0, reply: $0.1) } }
        }

        func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
            let reply = try await inner.deliver(request)
            captured.withLock { if $0 == nil { $0 = (request, reply) } }
            return reply
        }

        func registryNames() async throws -> RemoteRegistryNames {
            try await inner.registryNames()
        }
    }
#endif

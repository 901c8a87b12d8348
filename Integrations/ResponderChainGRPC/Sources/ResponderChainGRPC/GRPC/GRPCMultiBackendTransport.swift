public import GRPCNIOTransportHTTP2
public import ResponderChain
public import ServiceLifecycle
import GRPCCore
import Synchronization

/// A transport over several backend processes that serve the same entries: each sender's events
/// go to one backend while it lives, so that its posts stay in order there.
///
/// The backends are what grpc-swift's name resolution makes of a target — a static list of
/// addresses, or a DNS name (every address it resolves to is one backend), or any
/// `ResolvableTarget` a `NameResolverRegistry` resolves — and follow its updates: a DNS name is
/// resolved again every ``Options-swift.struct/resolveInterval``. The transport keeps one
/// ``GRPCRemoteTransport`` per address (each with its own connection, error mapping and cap on
/// calls in flight, see below).
///
/// ```swift
/// let transport = try GRPCMultiBackendTransport(
///     addresses: [("10.0.0.1", 9_000), ("10.0.0.2", 9_000), ("10.0.0.3", 9_000)])
/// // or: try GRPCMultiBackendTransport(dnsHost: "orders.internal", port: 9_000)
/// try await withThrowingDiscardingTaskGroup { group in
///     group.addTask { try await transport.run() }
///     let link = RemoteLink(entry: "orders", transport: transport, registry: registry)
///     …
///     transport.shutDown()
/// }
/// ```
///
/// **Affinity per sender.** The link passes each event's sender (``RemoteSenderKey``: the
/// sending responder's identity, or a relay's label). The sender ranks the backends by
/// rendezvous (highest-random-weight) hashing of its key and each backend's address, and its
/// event goes to the first of its ranking that is not down. The ranking depends only on the
/// key and the addresses: a sender stays with its backend while that backend lives; when a
/// backend leaves, only its senders move (each to its next choice), and when one comes back,
/// they return. One sender's posts go one after another (its lane waits for each outcome), so
/// they arrive in post order at whichever backend serves them.
///
/// **A dead backend.** A call that found no connection to its backend
/// (``RemoteLinkError/unreachable(_:)``: nothing was sent) is made again on the next backend of
/// the sender's ranking, with the time left before the send's deadline taken down by the time
/// the attempt took; the send ends `unreachable` only when every backend was found so. The
/// unreachable backend is marked down: calls pass it by for ``Options-swift.struct/initialBackoff``,
/// doubled at each unreachable call in a row up to ``Options-swift.struct/maxBackoff``; then the
/// next call that ranks it first tries it again, and any answer from it brings it back up.
/// Calls that may have reached it (``RemoteLinkError/lost(_:)``, ``RemoteLinkError/noAnswer(_:)``)
/// are never made again (delivery is at most once): they end as over ``GRPCRemoteTransport``.
///
/// **Calls in flight are capped per backend**, at ``Options-swift.struct/maxCallsInFlight``: the cap
/// protects a peer's HTTP/2 stream limit, which is per connection, and a slow backend's line does
/// not hold back the senders of the others.
///
/// A call made before the first resolution waits for it; a target that does not resolve makes
/// calls end `unreachable` until it does.
///
/// **Every wait reads the event system's clock** (``eventSystem``, the links' system): the
/// backoffs, the time an attempt took (taken off the next attempt's time left), the resolve
/// interval, and each backend's waits for answers.
public final class GRPCMultiBackendTransport: RemoteTransport, Service {
    /// How each backend is called, how often the target is resolved again, and how long a
    /// backend found unreachable is passed by.
    public struct Options: Sendable {
        /// Added to a send's time left for the call's own deadline
        /// (``GRPCRemoteTransport/deadlineGrace``).
        public var deadlineGrace: Duration = .milliseconds(250)
        /// The longest a call whose send has no deadline waits for its answer
        /// (``GRPCRemoteTransport/answerTimeout``).
        public var answerTimeout: Duration = .seconds(30)
        /// The HTTP/2 keepalive interval (``GRPCRemoteTransport``'s, pinging with or without
        /// calls open); `nil` for none.
        public var keepaliveInterval: Duration? = .seconds(10)
        /// The largest request, encoded, that is sent (``GRPCRemoteTransport/maxRequestBytes``).
        public var maxRequestBytes: Int = RemoteChainService.defaultMaxRequestBytes
        /// The most calls in flight to one backend at once; the others wait, first come first
        /// served.
        public var maxCallsInFlight: Int = 100
        /// How often a target resolved on request (DNS) is resolved again.
        public var resolveInterval: Duration = .seconds(30)
        /// How long a backend found unreachable is first passed by.
        public var initialBackoff: Duration = .seconds(1)
        /// The longest a backend found unreachable again and again is passed by.
        public var maxBackoff: Duration = .seconds(30)

        /// The defaults.
        public init() {}
    }

    private enum Command: Sendable {
        case resolved([SocketAddress])
        case unresolved(String)
        case shutDown
    }

    private struct State {
        /// The backends, by address, in the order the resolver gave them.
        var names: [String] = []
        var backends: [String: GRPCRemoteTransport] = [:]
        var health: BackendHealth
        /// Why the last resolution failed, if it did.
        var resolutionError: String?
    }

    /// How each backend is called and passed by.
    public let options: Options
    /// The event system of the links the transport serves: its clock times the backoffs, the
    /// attempts and the resolve interval.
    public let eventSystem: EventSystem
    private let resolver: NameResolver
    private let state: Mutex<State>
    private let resolution = Latch()
    private let commands: AsyncStream<Command>
    private let commandInput: AsyncStream<Command>.Continuation

    /// A transport over the backends `target` resolves to, by the first of `resolvers` that
    /// resolves it. `system` is the links' event system, whose clock every wait reads.
    ///
    /// - Throws: `RPCError` (`invalidArgument`) when no resolver of `resolvers` resolves
    ///   `target`, or when `options.maxCallsInFlight` is less than 1.
    public init(
        target: some ResolvableTarget, resolvers: NameResolverRegistry = .defaults,
        options: Options = Options(), system: EventSystem = .default
    ) throws {
        try CallLimiter.checkLimit(options.maxCallsInFlight)
        guard let resolver = resolvers.makeResolver(for: target) else {
            throw RPCError(code: .invalidArgument, message: "no name resolver for \(target)")
        }
        self.resolver = resolver
        self.options = options
        self.eventSystem = system
        self.state = Mutex(
            State(
                health: BackendHealth(initialBackoff: options.initialBackoff, maxBackoff: options.maxBackoff))
        )
        (commands, commandInput) = AsyncStream.makeStream(of: Command.self)
    }

    /// A transport over a static list of IPv4 addresses, for links of `system`.
    public convenience init(
        addresses: [(host: String, port: Int)], options: Options = Options(), system: EventSystem = .default
    ) throws {
        try self.init(target: .ipv4(pairs: addresses), options: options, system: system)
    }

    /// A transport over the addresses `host` resolves to in DNS (each address one backend),
    /// resolved again every ``Options-swift.struct/resolveInterval``, for links of `system`.
    public convenience init(
        dnsHost host: String, port: Int, options: Options = Options(), system: EventSystem = .default
    ) throws {
        try self.init(target: .dns(host: host, port: port), options: options, system: system)
    }

    /// The backends' addresses, as the last resolution gave them.
    public var backends: [String] { state.withLock { $0.names } }

    /// The backend `sender`'s next event goes to first: the first of its ranking that is not
    /// down; `nil` before the first resolution, or when none resolved.
    public func backend(for sender: RemoteSenderKey) -> String? {
        let now = eventSystem.now
        return state.withLock { state in
            state.health.attemptOrder(Rendezvous.ranking(of: state.names, for: sender), at: now).first
        }
    }

    /// Resolves the target and runs a connection to each backend until ``shutDown()``, or until
    /// the graceful shutdown of the `ServiceGroup` it runs in. Run it once.
    public func run() async throws {
        try await withGracefulShutdownHandler {
            try await withThrowingDiscardingTaskGroup { running in
                await withDiscardingTaskGroup { resolving in
                    resolving.addTask { await self.resolve() }
                    loop: for await command in commands {
                        switch command {
                        case .resolved(let addresses):
                            for backend in self.use(addresses) {
                                running.addTask { try await backend.run() }
                            }
                        case .unresolved(let why):
                            state.withLock { $0.resolutionError = why }
                            resolution.open()
                        case .shutDown:
                            break loop
                        }
                    }
                    resolving.cancelAll()
                }
                for backend in state.withLock({ Array($0.backends.values) }) { backend.shutDown() }
            }
        } onGracefulShutdown: {
            self.shutDown()
        }
    }

    /// Lets the calls under way finish, then stops ``run()``.
    public func shutDown() {
        commandInput.yield(.shutDown)
        resolution.open()
    }

    /// Delivers `request` to the first backend of the ranking of a sender of its own.
    public func deliver(_ request: RemoteRequest) async throws -> RemoteReply {
        try await deliver(request, sender: RemoteSenderKey(value: 0), placed: nil)
    }

    /// Delivers `request` to `sender`'s backend: the first of its ranking that is not down,
    /// and, while the backend tried was found unreachable, the next.
    ///
    /// Each event is one unary call, posts too (`placed` is not called): a sender's next post
    /// waits for this one's reply, which keeps the sender's order across a move to another
    /// backend. (A stream per sender, as ``GRPCRemoteTransport`` keeps, could not be placed again
    /// on the next backend in order once its backend was found unreachable.)
    public func deliver(_ request: RemoteRequest, sender: RemoteSenderKey, placed: (() -> Void)?) async throws
        -> RemoteReply
    {
        try await resolution.wait()
        let start = eventSystem.now
        let (attempts, resolutionError) = state.withLock { state in
            let order = state.health.attemptOrder(Rendezvous.ranking(of: state.names, for: sender), at: start)
            return (
                order.compactMap { name in state.backends[name].map { (name, $0) } }, state.resolutionError
            )
        }
        var unreachable = RemoteLinkError.unreachable(
            "no backend resolved" + (resolutionError.map { ": \($0)" } ?? ""))
        for (name, backend) in attempts {
            var attempt = request
            if let left = request.timeLeftNanoseconds {
                let spent = start.duration(to: eventSystem.now).clampedNanoseconds
                let (rest, overflow) = left.subtractingReportingOverflow(spent)
                attempt.timeLeftNanoseconds = overflow ? .min : rest
            }
            do {
                let reply = try await backend.deliver(attempt)
                state.withLock { $0.health.markAnswered(name) }
                return reply
            } catch RemoteLinkError.unreachable(let why) {
                let now = eventSystem.now
                state.withLock { $0.health.markUnreachable(name, at: now) }
                unreachable = .unreachable("\(name): \(why)")
                try Task.checkCancellation()
            }
        }
        throw unreachable
    }

    /// The names every backend that answers registers (a name one of them lacks is left out,
    /// so that ``RemoteLink/checkRegistry()`` finds it missing).
    ///
    /// - Throws: ``RemoteLinkError/unreachable(_:)`` when no backend answers; what a backend's
    ///   call throws otherwise.
    public func registryNames() async throws -> RemoteRegistryNames {
        try await resolution.wait()
        let (backends, resolutionError) = state.withLock { state in
            (state.names.compactMap { state.backends[$0] }, state.resolutionError)
        }
        var common: RemoteRegistryNames?
        for backend in backends {
            do {
                let names = try await backend.registryNames()
                common =
                    common.map {
                        RemoteRegistryNames(
                            events: $0.events.filter(names.events.contains),
                            info: $0.info.filter(names.info.contains), eventExamples: $0.eventExamples,
                            infoExamples: $0.infoExamples)
                    } ?? names
            } catch RemoteLinkError.unreachable {
                continue
            }
        }
        guard let common else {
            throw RemoteLinkError.unreachable(
                "no backend answered" + (resolutionError.map { ": \($0)" } ?? ""))
        }
        return common
    }

    /// Resolves the target, handing each result to ``run()``, until the task is cancelled: a
    /// resolver that pushes is followed, one pulled from is asked again every
    /// ``Options-swift.struct/resolveInterval``.
    private func resolve() async {
        var names = resolver.names.makeAsyncIterator()
        while !Task.isCancelled {
            do {
                guard let result = try await names.next() else { return }
                commandInput.yield(.resolved(result.endpoints.flatMap(\.addresses)))
            } catch {
                if Task.isCancelled { return }
                commandInput.yield(.unresolved("\(error)"))
            }
            if resolver.updateMode != .push {
                do { try await eventSystem.clock.sleep(for: options.resolveInterval) } catch { return }
            }
        }
    }

    /// Makes `addresses` the backends: shuts down those no longer among them, and returns the
    /// new ones, to run.
    private func use(_ addresses: [SocketAddress]) -> [GRPCRemoteTransport] {
        let known = state.withLock { $0.backends }
        var names: [String] = []
        var backends: [String: GRPCRemoteTransport] = [:]
        var added: [GRPCRemoteTransport] = []
        for address in addresses {
            let name = address.description
            guard backends[name] == nil else { continue }
            if let backend = known[name] {
                backends[name] = backend
            } else if let backend = makeBackend(address) {
                backends[name] = backend
                added.append(backend)
            } else {
                continue
            }
            names.append(name)
        }
        let gone = state.withLock { state in
            state.names = names
            state.backends = backends
            state.health.keep(only: Set(names))
            state.resolutionError = nil
            return known.filter { backends[$0.key] == nil }.values
        }
        for backend in gone { backend.shutDown() }
        resolution.open()
        return added
    }

    /// A transport to the backend at `address`; `nil` for an address it cannot use.
    private func makeBackend(_ address: SocketAddress) -> GRPCRemoteTransport? {
        let target: any ResolvableTarget
        if let ipv4 = address.ipv4 {
            target = ResolvableTargets.IPv4(addresses: [ipv4])
        } else if let ipv6 = address.ipv6 {
            target = ResolvableTargets.IPv6(addresses: [ipv6])
        } else if let unix = address.unixDomainSocket {
            target = ResolvableTargets.UnixDomainSocket(address: unix, authority: nil)
        } else if let vsock = address.virtualSocket {
            target = ResolvableTargets.VirtualSocket(address: vsock)
        } else {
            return nil
        }
        return try? GRPCRemoteTransport(
            target: target, deadlineGrace: options.deadlineGrace, answerTimeout: options.answerTimeout,
            keepaliveInterval: options.keepaliveInterval, maxRequestBytes: options.maxRequestBytes,
            maxCallsInFlight: options.maxCallsInFlight, streamsPosts: false, system: eventSystem)
    }
}

import Hummingbird
public import Logging
import NIOCore
public import Prometheus
public import ResponderChain
import PostgresNIO
import ResponderChainPostgres
import ResponderChainSQLite
import ResponderChainDistributedTracing
import ResponderChainMetrics
import ResponderChainServiceLifecycle
public import ServiceLifecycle
public import UnixSignals

/// The settings of an ``OrderService``.
public struct OrderServiceConfiguration: Sendable {
    /// The address the order routes listen on.
    public var host = "127.0.0.1"
    /// The port of the order routes; 0 picks a free one (read it in `onServerRunning`).
    public var port = 8080
    /// The port of `GET /metrics`; 0 picks a free one.
    public var metricsPort = 9090
    /// How long posted orders may still be delivered once the shutdown begins.
    public var gracePeriod: Duration = .seconds(10)
    /// The deadline of each awaited send (`POST /orders`): 504 past it; `nil` for none. A
    /// deadline costs a task per send and an entry in the system's timer heap (see the
    /// package's README, "Load").
    public var sendTimeout: Duration? = .seconds(5)
    /// How many posted orders the chain holds at once; past it a post is refused (503).
    public var maxOutstandingPosts = 1_024
    /// Seconds for `Retry-After` on a 503.
    public var retryAfter = 5
    /// The order book's stock: article → quantity.
    public var stock: [String: Int] = ["A-1": 1_000_000_000, "B-2": 1_000_000_000, "C-3": 10]
    /// The listen backlog of the order routes' socket.
    public var backlog = 256
    /// Whether the chain's hops open swift-distributed-tracing spans (`SpanTracer`).
    public var traceSpans = true
    /// Whether the chain's outcomes are counted and timed (`MetricsTracer`; the posting gauges
    /// and the dead-letter sink stay).
    public var recordMetrics = true
    /// Where posted orders are kept: in memory (the default), or in an SQLite file that makes
    /// them survive a crash (see ``OrderStorage``).
    public var storage = OrderStorage.memory
    /// Which posted orders are tried again when they fail, how often and when (see
    /// `EventSystem.RetryPolicies`); none by default. With a store, each failed attempt is kept
    /// with its post, so that a restart counts on.
    public var retryPolicies = EventSystem.RetryPolicies()
    /// The bearer token of the admin routes (``AdminRoutes``: the stored dead letters and their
    /// redrive); `nil` (the default) leaves them out.
    public var adminToken: String?

    /// The defaults: orders on 127.0.0.1:8080, metrics on 9090.
    public init() {}
}

/// The order service: the order routes (``OrderRoutes``) on one port, `GET /metrics` in the
/// Prometheus text format on another, and the chain (an ``OrderBook`` in its own `EventSystem`,
/// traced by a `SpanTracer` and a `MetricsTracer`) in one `ServiceGroup`.
///
/// **Order of the services.** A `ServiceGroup` starts its services in order and, on a graceful
/// shutdown (SIGTERM, SIGINT or `triggerGracefulShutdown()`), stops them in *reverse* order, each
/// one only after the one after it has returned. The services are listed
///
/// 1. the metrics server (`GET /metrics`) and the posting gauges,
/// 2. `EventSystemService` (the chain),
/// 3. the order server,
///
/// so that they stop in the order 3, 2, 1:
///
/// - the order server stops first: it closes its listening socket (no new connection), answers
///   every request it had read, and closes each connection after its answer. Awaited sends finish
///   normally, because the chain still runs; posts made until then are accepted.
/// - then the chain drains: every post accepted is delivered within `gracePeriod`, or ended
///   `.cancelled(.shutdown)` and dead-lettered past it. No post can arrive after it stopped
///   accepting, because nothing that posts still runs.
/// - the metrics stop last, so the drain's counts can be scraped until the very end.
///
/// The other way round, the chain would refuse the posts of requests still being answered (503s
/// the client need not have seen), and the last counts would never be exported.
///
/// **Storage.** With ``OrderStorage/sqlite(path:durability:)`` the chain's system keeps its posts
/// in an `SQLitePostStore`: the book is registered under ``OrderBook/entryName``, its stock and
/// orders live in the same file (``BookedOrders``), and the posts an earlier run accepted and had
/// not finished are delivered again before the service is returned (so before it listens). A
/// graceful shutdown then leaves the posts still queued in the file for the next start.
///
/// With ``OrderStorage/postgres(_:)`` the system's store is a `PostgresPostStore` that every
/// instance shares (`storage: .shared(store)`): the group also runs the `PostgresClient` and the
/// store's `run()` before the chain, and the order server listens only once the store's schema
/// and the book's tables (``PostgresBookedOrders``) are migrated and the system consumes
/// (`startConsuming`). The store's metrics go to the same registry as the chain's.
public struct OrderService: Sendable {
    /// The group to run: `try await service.group.run()`.
    public let group: ServiceGroup
    /// The chain's root.
    public let book: OrderBook
    /// The chain's event system.
    public let system: EventSystem
    /// The registry `GET /metrics` exports.
    public let registry: PrometheusCollectorRegistry
    /// How many posts of an earlier run the service found in its store and delivers again (0 in
    /// memory).
    public let recoveredPosts: Int

    /// The service, not yet listening: with a durable ``OrderServiceConfiguration/storage``, its
    /// file is open and the posts of an earlier run are being delivered again.
    ///
    /// - Parameters:
    ///   - configuration: Ports, timeouts, limits, stock.
    ///   - logger: The services' logger.
    ///   - registry: Where the metrics go (a new one by default).
    ///   - gracefulShutdownSignals: The signals that shut the group down gracefully.
    ///   - onServerRunning: Called with the order routes' port once they listen.
    ///   - onMetricsServerRunning: Called with the metrics port once it listens.
    ///   - onDeadLetter: Called with each dead letter, after it is logged.
    ///   - onShutdown: Called with the chain's shutdown report once every post has its outcome.
    /// - Throws: What opening the SQLite file or reading its unfinished posts throws.
    public init(
        configuration: OrderServiceConfiguration = OrderServiceConfiguration(),
        logger: Logger,
        registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
        gracefulShutdownSignals: [UnixSignal] = [.sigterm, .sigint],
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onMetricsServerRunning: @escaping @Sendable (Int) async -> Void = { _ in },
        onDeadLetter: @escaping @Sendable (DeadLetter) -> Void = { _ in },
        onShutdown: (@Sendable (EventSystem.ShutdownReport) async -> Void)? = nil
    ) async throws {
        let factory = PrometheusMetricsFactory(registry: registry)
        let dimensions = [("chain", "orders")]
        var tracers: [any ResponderChain.Tracer] = []
        if configuration.traceSpans { tracers.append(SpanTracer()) }
        if configuration.recordMetrics {
            tracers.append(MetricsTracer(dimensions: dimensions, factory: factory))
        }
        var storage = EventSystem.Storage.memory
        var booked: (any OrderLedger)?
        var shared: PostgresOrders?
        switch configuration.storage {
        case .memory:
            break
        case .sqlite(let path, let durability):
            let store = try SQLitePostStore(
                path: path, events: OrderBook.storedEvents, durability: durability)
            booked = try await BookedOrders(store: store, stock: configuration.stock)
            storage = .store(store)
        case .postgres(let settings):
            let postgres = try PostgresOrders(
                settings, logger: logger,
                metrics: PostgresStoreMetrics(
                    factory: factory, interval: settings.metricsInterval, dimensions: dimensions))
            booked = postgres.booked
            storage = .shared(postgres.store)
            shared = postgres
        }
        let system = EventSystem(
            tracer: tracers.isEmpty ? nil : MultiplexTracer(tracers),
            deadLetters: DeadLetter.Sink { letter in
                logger.warning(
                    "dead letter",
                    metadata: [
                        "event_id": "\(letter.outcome.eventID.debugDescription)",
                        "outcome": "\(letter.outcome)",
                    ])
                onDeadLetter(letter)
            },
            postingLimit: EventSystem.PostingLimit(
                maxOutstanding: configuration.maxOutstandingPosts, whenFull: .reject),
            storage: storage, retryPolicies: configuration.retryPolicies)
        let book = OrderBook(stock: configuration.stock, system: system, booked: booked)
        if shared != nil {
            // Every instance delivers what any instance posted: nothing to recover at start.
            try system.register(book, as: OrderBook.entryName)
            recoveredPosts = 0
        } else if booked != nil {
            try system.register(book, as: OrderBook.entryName)
            recoveredPosts = try await system.recoverStoredPosts()
            if recoveredPosts > 0 {
                logger.info(
                    "delivering the posts of an earlier run", metadata: ["posts": "\(recoveredPosts)"])
            }
        } else {
            recoveredPosts = 0
        }

        let router = Router(context: OrderRequestContext.self)
        router.add(middleware: TracingMiddleware())
        router.add(middleware: RequestInfoMiddleware())
        OrderRoutes(
            book: book, sendTimeout: configuration.sendTimeout, retryAfter: configuration.retryAfter,
            recoveredPosts: recoveredPosts
        )
        .add(to: router)
        if let token = configuration.adminToken {
            AdminRoutes(system: system, token: token).add(to: router)
        }
        let orderServer = Application(
            router: router,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port),
                backlog: configuration.backlog),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)

        let metricsRouter = Router()
        metricsRouter.get("metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer())))
        }
        let metricsServer = Application(
            router: metricsRouter,
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.metricsPort)),
            onServerRunning: { channel in await onMetricsServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger)
        let gauges = PostingGauges(system: system, dimensions: dimensions, factory: factory)

        self.book = book
        self.system = system
        self.registry = registry
        let chain = EventSystemService(
            system, gracePeriod: configuration.gracePeriod, logger: logger, onShutdown: onShutdown)
        var services: [any Service] = [
            metricsServer,
            ClosureService { await cancelWhenGracefulShutdown { await gauges.run(every: .seconds(1)) } },
        ]
        if let shared {
            // The client and the store outlive the chain (its last finishes and releases); the
            // order server listens once the schema is there and the system consumes.
            let stock = configuration.stock
            services += [
                shared.client, shared.store, chain,
                ClosureService {
                    try await shared.prepare(stock: stock, system: system)
                    try await orderServer.run()
                },
            ]
        } else {
            services += [chain, orderServer]
        }
        self.group = ServiceGroup(
            services: services,
            gracefulShutdownSignals: gracefulShutdownSignals,
            logger: logger)
    }
}

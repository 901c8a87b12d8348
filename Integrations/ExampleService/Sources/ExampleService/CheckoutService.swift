// swift-format-ignore-file
// The service example of Docs/Guide.md ("Running it as a service"), verbatim between the markers;
// the root package's DocSnippetTests compare the two.
public import CoreMetrics
public import Logging
public import ResponderChain
import ResponderChainLogging
import ResponderChainMetrics
import ResponderChainServiceLifecycle
public import ServiceLifecycle
import UnixSignals

// snippet: Docs/Guide.md 33
public struct PlaceOrder: Event { public let id: Int }

/// The root of the checkout chain.
public actor OrderDesk: Responder {
    public private(set) var placed: [Int] = []
    public init() {}
    public var next: (any Responder)? { nil }
    public nonisolated var isRoot: Bool { true }
    public static let strategies = Strategies<OrderDesk> {
        $0.on(PlaceOrder.self) { desk, order, _ in
            desk.placed.append(order.id)
            return .handled
        }
    }
}

/// Takes orders from a stream and posts them into the chain, until the graceful shutdown.
public struct OrderIntake: Service {
    let orders: AsyncStream<Int>
    let desk: OrderDesk
    public init(orders: AsyncStream<Int>, desk: OrderDesk) {
        self.orders = orders
        self.desk = desk
    }
    public func run() async throws {
        for await id in orders.cancelOnGracefulShutdown() {
            await desk.post(PlaceOrder(id: id))
        }
    }
}

/// The whole service: run it with `try await makeCheckoutService(…).run()` after bootstrapping
/// `LoggingSystem` and `MetricsSystem` in `main`.
public func makeCheckoutService(
    intake: OrderIntake,
    logger: Logger,
    metrics: any MetricsFactory = MetricsSystem.factory
) throws -> ServiceGroup {
    // 1. Configure the chain once: every responder that names no system uses this one.
    let chain = [("chain", "checkout")]
    let system = EventSystem(
        tracer: MultiplexTracer([
            LoggingTracer(logger: logger, tagsHandlerLines: false),
            MetricsTracer(dimensions: chain, factory: metrics),
        ]),
        deadLetters: DeadLetter.Sink { letter in
            logger.warning("dead letter", metadata: ["outcome": "\(letter.outcome)"])
        },
        postingLimit: EventSystem.PostingLimit(maxOutstanding: 1_024))
    try EventSystem.bootstrap(system)

    // 2. Gauges of the posts it holds, sampled every second until the shutdown.
    let gauges = PostingGauges(system: system, dimensions: chain, factory: metrics)

    // 3. A group shuts its services down in reverse order: the intake stops taking orders
    //    first, then the chain drains what it was handed (10 s at most), then the gauges stop.
    return ServiceGroup(
        services: [
            EventSystemService(system, gracePeriod: .seconds(10), logger: logger),
            ClosureService { await cancelWhenGracefulShutdown { await gauges.run(every: .seconds(1)) } },
            intake,
        ],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger)
}
// end snippet

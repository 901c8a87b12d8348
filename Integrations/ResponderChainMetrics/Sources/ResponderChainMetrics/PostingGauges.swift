public import CoreMetrics
public import ResponderChain

/// Gauges of an event system's posting: the posts it holds (`outstandingPosts`), the posters
/// waiting for room (`suspendedPosters`) and the most posts it has held
/// (`peakOutstandingPosts`).
///
/// These are statistics of an `EventSystem`, not of a send, so a tracer cannot report them (and
/// the system, which is given its tracer, cannot be given to it). Sample them instead: call
/// ``update()`` when you like (before a scrape, say), or run ``run(every:)`` in a task of its
/// own, which updates them at an interval until the task is cancelled:
///
/// ```swift
/// let gauges = PostingGauges(system: .checkout, dimensions: [("chain", "checkout")])
/// let sampling = Task { await gauges.run(every: .seconds(5)) }
/// …
/// sampling.cancel()
/// ```
///
/// With swift-service-lifecycle, wrap it in a service of your own (this package does not depend
/// on it):
///
/// ```swift
/// struct PostingGaugesService: Service {
///     let gauges: PostingGauges
///     func run() async throws {
///         await cancelWhenGracefulShutdown { await gauges.run(every: .seconds(5)) }
///     }
/// }
/// ```
///
/// The gauges are made once, when the sampler is made, with the labels of ``MetricNames`` and
/// the fixed `dimensions` you give (no others: three series per system). Reading the statistics
/// takes the system's post-office lock briefly.
public struct PostingGauges: Sendable {
    /// The system sampled.
    public let system: EventSystem
    /// The labels of the gauges.
    public let names: MetricNames

    private let outstanding: Gauge
    private let suspended: Gauge
    private let peak: Gauge

    /// Gauges of `system`'s posting, reported to `factory` (the bootstrapped
    /// `MetricsSystem.factory` by default) with the fixed `dimensions`.
    ///
    /// ```swift
    /// let gauges = PostingGauges(system: .checkout, dimensions: [("chain", "checkout")])
    /// ```
    public init(
        system: EventSystem,
        names: MetricNames = MetricNames(),
        dimensions: [(String, String)] = [],
        factory: any MetricsFactory = MetricsSystem.factory
    ) {
        self.system = system
        self.names = names
        outstanding = Gauge(label: names.outstandingPosts, dimensions: dimensions, factory: factory)
        suspended = Gauge(label: names.suspendedPosters, dimensions: dimensions, factory: factory)
        peak = Gauge(label: names.peakOutstandingPosts, dimensions: dimensions, factory: factory)
    }

    /// Records the system's statistics now, once each.
    ///
    /// ```swift
    /// gauges.update()   // e.g. right before the metrics are scraped
    /// ```
    public func update() {
        outstanding.record(system.outstandingPosts)
        suspended.record(system.suspendedPosters)
        peak.record(system.peakOutstandingPosts)
    }

    /// Updates the gauges now and then every `interval` of the system's clock
    /// (`EventSystem/clock`: a test's manual clock moves it), until the calling task is cancelled;
    /// then returns (it does not throw: cancellation is how it is meant to end). A task already
    /// cancelled when it calls this updates the gauges once and returns.
    ///
    /// ```swift
    /// let sampling = Task { await gauges.run(every: .seconds(5)) }
    /// ```
    public func run(every interval: Duration) async {
        while true {
            update()
            do {
                try await system.clock.sleep(for: interval)
            } catch {
                return
            }
        }
    }
}

public import Logging
public import ResponderChain
public import ServiceLifecycle

/// An ``ResponderChain/EventSystem`` as a service of a swift-service-lifecycle `ServiceGroup`:
/// it runs until the group shuts down gracefully, then drains the system.
///
/// The drain is the system's own ``ResponderChain/EventSystem/shutDown(gracePeriod:)``:
///
/// 1. From the moment the graceful shutdown reaches this service, every new post is refused: its
///    ticket ends `.rejected` with reason `.shuttingDown`, and it is dead-lettered.
/// 2. Posts accepted before go on being delivered, in order, for up to `gracePeriod`.
/// 3. Then the rest end `.cancelled` with reason `.shutdown`, and are dead-lettered.
///
/// `run()` returns once every post has its outcome, after logging the system's
/// ``ResponderChain/EventSystem.ShutdownReport`` and handing it to `onShutdown`. The system's observation
/// streams end then too.
///
/// If the service's task is cancelled instead (the group was cancelled, or another service
/// failed), there is no grace period: the system shuts down at once, and the posts it still
/// holds end `.cancelled`, dead-lettered. Nothing is lost either way.
///
/// **Order in the group.** A `ServiceGroup` shuts its services down in reverse order. List this
/// service *before* the services that post into the chain (an HTTP server, a queue consumer), so
/// that they stop taking work first and the chain drains what they handed it:
///
/// ```swift
/// let chain = EventSystemService(checkoutSystem, gracePeriod: .seconds(10), logger: logger)
/// let group = ServiceGroup(
///     services: [chain, httpServer],   // httpServer stops first, then the chain drains
///     gracefulShutdownSignals: [.sigterm],
///     logger: logger)
/// try await group.run()
/// ```
///
/// A send that a service awaits in its own task is not the system's to stop; it ends with that
/// task (cancel it).
public struct EventSystemService: Service {
    /// The system this service drains.
    public let system: EventSystem
    /// How long accepted posts may go on being delivered once the graceful shutdown begins.
    public let gracePeriod: Duration

    private let logger: Logger?
    private let onShutdown: (@Sendable (EventSystem.ShutdownReport) async -> Void)?

    /// A service that drains `system` with `gracePeriod` when its group shuts down gracefully.
    ///
    /// - Parameters:
    ///   - system: The system to drain; the process-wide one (``ResponderChain/EventSystem/default``)
    ///     unless the chain has its own.
    ///   - gracePeriod: How long accepted posts may still be delivered; a negative one (a
    ///     configuration read from outside) is none: the posts still outstanding end at once.
    ///   - logger: Where the drain is logged: when it begins (`info`), and its report (`info`, or
    ///     `warning` when posts were ended early or refused).
    ///   - onShutdown: Called with the report once every post has its outcome, before `run()`
    ///     returns (to record it, or to fail a health check).
    public init(
        _ system: EventSystem = .default,
        gracePeriod: Duration,
        logger: Logger? = nil,
        onShutdown: (@Sendable (EventSystem.ShutdownReport) async -> Void)? = nil
    ) {
        self.system = system
        self.gracePeriod = max(.zero, gracePeriod)
        self.logger = logger
        self.onShutdown = onShutdown
    }

    /// Waits for the group's graceful shutdown, then drains the system and returns its report.
    ///
    /// Cancelled instead, it drains with no grace period. It does not throw: whatever happens,
    /// the drain ends every post with an outcome (the `throws` is the protocol's).
    public func run() async throws {
        let graceful: Bool
        do {
            try await gracefulShutdown()
            graceful = true
        } catch {
            // Cancelled before any graceful shutdown: no grace period (the cancelled task ends
            // the system's grace period at once).
            graceful = false
        }
        logger?.info(
            "draining the event system",
            metadata: [
                "grace_period": "\(graceful ? gracePeriod : .zero)",
                "outstanding_posts": "\(system.outstandingPosts)",
            ])
        let report = await system.shutDown(gracePeriod: graceful ? gracePeriod : .zero)
        let level: Logger.Level = report.endedEarly > 0 || report.refused > 0 ? .warning : .info
        logger?.log(
            level: level, "event system drained",
            metadata: [
                "finished": "\(report.finished)",
                "ended_early": "\(report.endedEarly)",
                "refused": "\(report.refused)",
            ])
        await onShutdown?(report)
    }
}

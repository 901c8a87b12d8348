/// One serial executor for a group of responders (the actors of a window, or of one service's
/// request), so that hops between them are plain calls with no thread switch.
///
/// Each actor of the group hands out the shared executor as its own, and the group is entered
/// once per event (or per batch), with ``run(_:)``:
///
/// ```swift
/// let checkout = SharedExecutor(label: "checkout")
///
/// actor Order: Responder {
///     let executor: SharedExecutor
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.unownedExecutor }
///     var next: (any Responder)? { session }
///     …
/// }
///
/// await checkout.run { _ in
///     await lineItem.send(ItemAdded(sku: "A-1"))    // every hop inside the group: no switch
/// }
/// ```
///
/// The actors stay separate actors (their own state, their own `isolated` handlers) but share one
/// serial queue of work: two of them never run at the same time. A send that starts outside the
/// executor switches onto it at the first hop inside the group, and off it when it leaves;
/// events posted from inside ``run(_:)`` are delivered on the executor too.
public actor SharedExecutor {
    /// A name for debugging.
    public nonisolated let label: String

    /// A new executor, shared by the actors that adopt it.
    public init(label: String = "SharedExecutor") {
        self.label = label
    }

    /// Runs `body` on the shared executor and returns its result: every send it makes starts
    /// there, so hops to responders of the group need no switch.
    public func run<Result: Sendable>(
        _ body: @Sendable (isolated SharedExecutor) async throws -> Result
    ) async rethrows -> Result {
        try await body(self)
    }
}

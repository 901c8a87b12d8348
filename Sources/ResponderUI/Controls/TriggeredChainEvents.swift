/// Collects the chain events controls send while a window delivers one pointer event, so that the
/// delivery can return them (``PointerDelivery/triggered``).
///
/// The window binds a fresh collector to ``current`` around its send; the hops run in that
/// send's task (a send runs every hop in its caller's task), so a control reached by the event
/// finds it there. A control binds `nil` around each chain event it sends: what the handlers of
/// a chain event send in turn is theirs, not the pointer event's. A window that delivers a
/// pointer event from inside a handler binds its own collector for that delivery.
@MainActor
final class TriggeredChainEvents {
    /// The collector of the pointer delivery under way in this task, if any.
    @TaskLocal static var current: TriggeredChainEvents?

    /// The chain events sent so far, in the order they were sent.
    private(set) var deliveries: [ChainEventDelivery] = []

    /// Records one chain event that has been sent, with its outcome.
    func append(_ delivery: ChainEventDelivery) {
        deliveries.append(delivery)
    }
}

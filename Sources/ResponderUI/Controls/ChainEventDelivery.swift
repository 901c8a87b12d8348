/// One chain event a control sent when one of its control events happened: which control, for
/// which control event, the event it sent, and how that send ended.
///
/// A tap returns the chain events it caused, with their outcomes, in its
/// ``PointerDelivery/triggered``:
///
/// ```swift
/// buy.addChainEvent(for: .tap) { _ in AddToCart(sku: "A-1") }
///
/// let delivery = await window.tap(at: Point(x: 110, y: 110))
/// for sent in delivery?.triggered ?? [] {
///     print(sent.control.label, sent.controlEvent, sent.event.traceName, sent.outcome)
///     // Buy tap AddToCart handled by ProductController after 4 hops
/// }
/// ```
public struct ChainEventDelivery: Sendable {
    /// The control that sent the event.
    public let control: Control
    /// The control event it was registered for (``ControlEvent/tap``,
    /// ``ControlEvent/valueChanged``, …).
    public let controlEvent: ControlEvent
    /// The chain event that was sent up the chain from ``control``.
    public let event: any Event
    /// How that send ended.
    public let outcome: Outcome
}

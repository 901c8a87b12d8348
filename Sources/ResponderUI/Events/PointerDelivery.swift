/// What a window did with one phase of pointer input: the view the sequence is bound to, the
/// event it sent up the chain from there and how that send ended, and the chain events that
/// controls sent because of it.
///
/// ```swift
/// buy.addChainEvent(for: .tap) { _ in AddToCart(sku: "A-1") }
///
/// guard let delivery = await window.tap(at: Point(x: 110, y: 110)) else { return }  // nothing hit
/// delivery.target              // buy: the view hit at `began`
/// delivery.outcome             // the `ended` pointer event: handled by buy
/// delivery.triggered           // [AddToCart from buy, for .tap, and its outcome]
/// if let added = delivery.triggered.first, !added.outcome.isHandled {
///     print("nobody added", added.event, "—", added.outcome)
/// }
/// ```
public struct PointerDelivery: Sendable {
    /// The view the event started at: the view the sequence was bound to when the window sent
    /// it — the view hit at ``PointerPhase/began``, or the ancestor that took the sequence over
    /// (``View/takeOver(_:)``).
    public let target: View
    /// The event that was sent.
    public let event: PointerEvent
    /// How the send ended: `Outcome.cancelled(_:)` with reason
    /// `Outcome.Stop.Reason.withdrawn` when the window withdrew the event while it was under
    /// way (its sequence was cancelled, or a later phase of it was sent).
    ///
    /// A control stops the pointer events it tracks, so for a tap on a button this is
    /// `Outcome.handled(_:)` at the button whatever became of the chain event the button
    /// sent: read that in ``triggered``.
    public let outcome: Outcome
    /// The chain events that controls sent while this pointer event was delivered, in the order
    /// they were sent, each with its outcome — for an ``PointerPhase/ended`` inside a control,
    /// the events its ``Control/controlTriggered()`` sent (``ControlEvent/tap`` for a
    /// ``Button``, ``ControlEvent/valueChanged`` for a ``Switch``). The delivery returns only
    /// once they have all ended. Empty when no control was triggered.
    ///
    /// Only the chain events sent through ``Control/sendChainEvents(for:)`` during this
    /// delivery count, not those the handlers of a chain event send in turn, nor those sent by a
    /// task that a handler started and did not await.
    public let triggered: [ChainEventDelivery]
}

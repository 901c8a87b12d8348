/// One chain event a control or a gesture recognizer sent: who sent it and why, the event, and
/// how that send ended.
///
/// A tap returns the chain events it caused, with their outcomes, in its
/// ``PointerDelivery/triggered``:
///
/// ```swift
/// buy.addChainEvent(for: .tap) { _ in AddToCart(sku: "A-1") }
///
/// let delivery = await window.tap(at: Point(x: 110, y: 110))
/// for sent in delivery?.triggered ?? [] {
///     print(sent.sender.label, sent.source, sent.event.traceName, sent.outcome)
///     // Buy tap AddToCart handled by ProductController after 4 hops
/// }
/// ```
public struct ChainEventDelivery: Sendable {
    /// What made the event be sent.
    public enum Source: Sendable, CustomStringConvertible {
        /// A control's control event.
        case control(Control, ControlEvent)
        /// A gesture recognizer's state change.
        case gesture(GestureRecognizer, GestureRecognizer.State)

        /// `tap`, or `pan began`.
        public var description: String {
            switch self {
            case .control(_, let controlEvent): "\(controlEvent)"
            case .gesture(let recognizer, let state): "\(recognizer.label) \(state)"
            }
        }
    }

    /// The view the event was sent up the chain from: the control, or the recognizer's view.
    public let sender: View
    /// The control event or the recognizer's state change it was sent for.
    public let source: Source
    /// The chain event.
    public let event: any Event
    /// How that send ended.
    public let outcome: Outcome

    /// The control that sent the event, if a control did.
    public var control: Control? {
        if case .control(let control, _) = source { control } else { nil }
    }

    /// The control event it was registered for (``ControlEvent/tap``,
    /// ``ControlEvent/valueChanged``, …), if a control sent it.
    public var controlEvent: ControlEvent? {
        if case .control(_, let controlEvent) = source { controlEvent } else { nil }
    }

    /// The gesture recognizer that sent it, if one did.
    public var recognizer: GestureRecognizer? {
        if case .gesture(let recognizer, _) = source { recognizer } else { nil }
    }
}

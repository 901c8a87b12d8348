/// A view that tracks pointers and, on its control events, sends chain events of the app's
/// choosing up the chain from itself — the successor of
/// `transferEasyEventWithIdentifier(_:for:)`.
///
/// ```swift
/// struct AddToCart: Event { let sku: String }
///
/// let buy = Button(frame: Rect(x: 0, y: 0, width: 44, height: 44), title: "Buy")
/// buy.addChainEvent(for: .tap) { button in AddToCart(sku: "A-1") }
/// ```
///
/// A pointer that goes down on the control (or on a subview of it, and bubbles up) highlights
/// it; lifting it inside the control's hit area triggers the control (``controlTriggered()``),
/// which sends the events registered for ``ControlEvent/tap``. The pointer events themselves
/// stop at the control. The delivery of the `ended` that triggered it waits for those chain
/// events and returns them with their outcomes:
///
/// ```swift
/// let delivery = await window.tap(at: Point(x: 20, y: 20))
/// delivery?.triggered.map(\.outcome.kind)     // [.handled]
/// ```
@MainActor
open class Control: View, ChainEventSource {
    /// The chain events to send for each control event, in registration order.
    private var chainEvents: [ControlEvent: [@MainActor (Control) -> (any Event)?]] = [:]

    /// Whether the control reacts to pointers; a disabled control lets them pass.
    public final var isEnabled = true
    /// Whether a pointer is down on the control and inside it.
    public private(set) final var isHighlighted = false
    /// The outcomes of the chain events the control sent the last time it was triggered.
    public private(set) final var lastOutcomes: [Outcome] = []

    /// Registers a chain event for `controlEvent`; `make` builds it from the control each time.
    func register(_ controlEvent: ControlEvent, _ make: @escaping @MainActor (Control) -> (any Event)?) {
        chainEvents[controlEvent, default: []].append(make)
    }

    /// Removes every chain event registered for `controlEvent`.
    public final func removeChainEvents(for controlEvent: ControlEvent) {
        chainEvents[controlEvent] = nil
    }

    /// Sends the chain events registered for `controlEvent` up the chain from this control, one
    /// after the other, and returns their outcomes (also kept in ``lastOutcomes``).
    ///
    /// When this happens while a window delivers a pointer event (the control was triggered by
    /// it, or a handler of it called this), each chain event sent is also reported, with its
    /// outcome, in that delivery's ``PointerDelivery/triggered``.
    @discardableResult
    public final func sendChainEvents(for controlEvent: ControlEvent) async -> [Outcome] {
        let delivery = TriggeredChainEvents.current
        var outcomes: [Outcome] = []
        for make in chainEvents[controlEvent] ?? [] {
            guard let event = make(self) else { continue }
            // What the chain event's handlers trigger in turn belongs to them, not to the
            // pointer delivery.
            let outcome = await TriggeredChainEvents.$current.withValue(nil) {
                await send(event)
            }
            outcomes.append(outcome)
            delivery?.append(
                ChainEventDelivery(
                    sender: self, source: .control(self, controlEvent), event: event, outcome: outcome))
        }
        lastOutcomes = outcomes
        return outcomes
    }

    /// A pointer went up inside the control. Sends the ``ControlEvent/tap`` chain events;
    /// subclasses change what triggering means (a switch flips and sends
    /// ``ControlEvent/valueChanged``). The `ended` delivery that triggered the control awaits
    /// this method, and reports every chain event sent through ``sendChainEvents(for:)`` from
    /// it in its ``PointerDelivery/triggered``: an override that sends its chain events that
    /// way (as ``Switch`` does) needs nothing else to report them.
    open func controlTriggered() async {
        await sendChainEvents(for: .tap)
    }

    /// Runs the control's tables (its own, then its class's), then tracks pointer events: they
    /// highlight the control, and an `ended` inside it triggers it. Pointer events stop here. A
    /// pointer event stopped while the handlers ran (withdrawn by its window, see
    /// ``Window/dispatch(_:at:pointer:)``) is not tracked: the control may already have been
    /// told its sequence was cancelled.
    override func runStrategies(for event: any Event, context: inout EventContext) async throws
        -> Disposition
    {
        let own = try await super.runStrategies(for: event, context: &context)
        if own.isHandled { return own }
        guard isEnabled, !context.isCancelled, let pointer = event as? PointerEvent else {
            return .pass
        }
        let inside = point(inside: pointer.location(in: self))
        switch pointer.phase {
        case .began, .moved:
            isHighlighted = inside
        case .ended:
            isHighlighted = false
            if inside { await controlTriggered() }
        case .cancelled:
            isHighlighted = false
        }
        return .handled
    }

    /// `false` for a one-pointer single tap recognizer on an ancestor while the control is
    /// enabled: the control's own tap wins (UIKit's rule for controls under gesture
    /// recognizers); `true` for any other recognizer.
    open override func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        guard isEnabled, let tap = recognizer as? TapGestureRecognizer else { return true }
        return !(tap.numberOfTapsRequired == 1 && tap.numberOfPointersRequired == 1)
    }

    /// A sequence bound to the control (or to a subview of it) was cancelled, for example because
    /// the control left its window: the highlight goes, and the cancellation stops here, like the
    /// other pointer phases. A disabled control lets it pass.
    open override func pointerCancelled(_ pointer: PointerEvent) -> Disposition {
        isHighlighted = false
        return isEnabled ? .handled : .pass
    }
}

/// A control with an on/off value: a tap flips it and sends its
/// ``ControlEvent/valueChanged`` chain events (read the new value from the switch).
///
/// ```swift
/// let favourite = Switch(frame: Rect(x: 270, y: 8, width: 50, height: 28))
/// favourite.addChainEvent(for: .valueChanged) { toggle in FavouriteChanged(isOn: toggle.isOn) }
/// ```
@MainActor
open class Switch: Control {
    /// Whether the switch is on; a tap flips it before its `valueChanged` chain events are sent.
    public final var isOn: Bool

    /// A switch at `frame`, initially `isOn`, named `label` in traces.
    public init(frame: Rect = .zero, isOn: Bool = false, label: String? = nil) {
        self.isOn = isOn
        super.init(frame: frame, label: label)
    }

    /// Flips the value and sends the ``ControlEvent/valueChanged`` chain events.
    open override func controlTriggered() async {
        isOn.toggle()
        await sendChainEvents(for: .valueChanged)
    }
}

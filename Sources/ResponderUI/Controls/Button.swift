/// A control with a title that sends its ``ControlEvent/tap`` chain events when tapped.
///
/// ```swift
/// let left = Button(frame: Rect(x: 8, y: 8, width: 80, height: 28), title: "Details")
/// left.addChainEvent(for: .tap) { _ in ShowDetails(sku: sku) }
/// ```
@MainActor
open class Button: Control {
    /// The text the button shows; changing it leaves its trace ``InterfaceResponder/label`` as it was.
    public final var title: String

    /// A button at `frame` titled `title`, named `label` in traces (the title if `nil`).
    public init(frame: Rect = .zero, title: String, label: String? = nil) {
        self.title = title
        super.init(frame: frame, label: label ?? title)
    }
}

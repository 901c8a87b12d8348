/// Something that happens to a ``Control`` and can start a chain event: a tap, a value change.
///
/// Extend it with your own, declared once:
///
/// ```swift
/// extension ControlEvent { static let longPress = ControlEvent("longPress") }
/// ```
public struct ControlEvent: Hashable, Sendable, CustomStringConvertible {
    /// The control event's name.
    public let rawValue: String

    /// A control event named `rawValue`.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// A pointer went down and up inside the control.
    public static let tap = ControlEvent("tap")
    /// The control's value changed (a switch flipped).
    public static let valueChanged = ControlEvent("valueChanged")

    /// The control event's name, its ``rawValue``.
    public var description: String { rawValue }
}

/// The modifier keys held during a key event.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    /// One bit per modifier, as in the static members.
    public let rawValue: UInt8

    /// Modifiers from raw bits.
    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1 << 0)
    /// Control.
    public static let control = KeyModifiers(rawValue: 1 << 1)
    /// Option / Alt.
    public static let option = KeyModifiers(rawValue: 1 << 2)
    /// Command / Meta.
    public static let command = KeyModifiers(rawValue: 1 << 3)
}

/// Whether a key went down or up.
public enum KeyPhase: String, Hashable, Sendable, CustomStringConvertible {
    /// The key was pressed.
    case down
    /// The key was released.
    case up

    /// The phase's name.
    public var description: String { rawValue }
}

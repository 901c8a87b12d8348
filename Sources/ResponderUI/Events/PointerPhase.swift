/// The phases of a pointer sequence: began, then any number of moved, then ended or cancelled.
public enum PointerPhase: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The pointer went down; the window hit-tests here and binds the sequence.
    case began
    /// The pointer moved.
    case moved
    /// The pointer lifted; the sequence is over.
    case ended
    /// The sequence was cancelled; it is over, and its effects should be undone.
    case cancelled

    /// The phase's name.
    public var description: String { rawValue }
}

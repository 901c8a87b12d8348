/// Why a pointer sequence was cancelled.
public enum PointerCancellation: String, Hashable, Sendable, CustomStringConvertible {
    /// The input source cancelled it (a system gesture, an incoming call).
    case system
    /// The view the sequence was bound to (or an ancestor of it) was removed from its window.
    case viewLeftWindow
    /// The window was removed from its application.
    case windowDetached

    /// The reason's name.
    public var description: String { rawValue }
}

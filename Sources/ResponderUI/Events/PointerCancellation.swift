/// Why a pointer sequence was cancelled.
///
/// ```swift
/// override func pointerCancelled(_ pointer: PointerEvent) -> Disposition {
///     isPressed = false
///     // .takenOver: an ancestor (a scroll view) goes on with the sequence; nothing to undo there.
///     return .handled
/// }
/// ```
public enum PointerCancellation: Hashable, Sendable, CustomStringConvertible {
    /// The input source cancelled it (a system gesture, an incoming call).
    case system
    /// The view the sequence was bound to (or an ancestor of it) was removed from its window.
    case viewLeftWindow
    /// The window was removed from its application.
    case windowDetached
    /// An ancestor of the view the sequence was bound to took the sequence over
    /// (``View/takeOver(_:)``): the sequence goes on, but for this view it is over — the rest
    /// of it goes to that ancestor.
    case takenOver
    /// A gesture recognizer (named by its label) attached to the view or to an ancestor of it
    /// recognized its gesture and took the sequence (``GestureRecognizer/cancelsTouchesInView``):
    /// for the views it is over; the rest of it goes to the recognizers only.
    case gestureRecognized(by: String)

    /// The reason's name (`gestureRecognized(by: pan)` names the recognizer).
    public var description: String {
        switch self {
        case .system: "system"
        case .viewLeftWindow: "viewLeftWindow"
        case .windowDetached: "windowDetached"
        case .takenOver: "takenOver"
        case .gestureRecognized(let recognizer): "gestureRecognized(by: \(recognizer))"
        }
    }
}

/// Why ``GestureRecognizer/require(toFail:)`` refused a requirement. Nothing changed.
///
/// ```swift
/// try singleTap.require(toFail: doubleTap)
/// try doubleTap.require(toFail: singleTap)   // throws .cycle: each would wait for the other
/// ```
public enum GestureRequirementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A recognizer cannot wait for itself to fail.
    case requiresItself
    /// The other recognizer already waits for this one (directly or through others).
    case cycle

    /// What went wrong, in a few words.
    public var description: String {
        switch self {
        case .requiresItself: "a recognizer cannot require itself to fail"
        case .cycle: "the other recognizer already waits for this one to fail"
        }
    }
}

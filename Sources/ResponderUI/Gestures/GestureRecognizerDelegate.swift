/// Decides, for the recognizers it is the delegate of, whether one may begin and which may
/// recognize together, and hears how each attempt ended. Every requirement has a default.
///
/// ```swift
/// final class PhotoController: ViewController, GestureRecognizerDelegate {
///     func gestureRecognizer(
///         _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
///     ) -> Bool {
///         recognizer === pinch || other === pinch   // pinch and pan together
///     }
/// }
/// ```
@MainActor
public protocol GestureRecognizerDelegate: AnyObject {
    /// Whether `recognizer` may leave ``GestureRecognizer/State/possible`` for
    /// ``GestureRecognizer/State/began`` or ``GestureRecognizer/State/recognized``; asked when
    /// it has won its pointers. `false` fails it (``GestureAttempt/Reason/declined``). `true` by
    /// default.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool

    /// Whether `recognizer` and `other`, competing for a pointer, may both recognize: neither
    /// defeats the other. Either one's delegate saying `true` is enough. `false` by default.
    func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool

    /// Called once per attempt, when `recognizer` reaches a terminal state, with that state and
    /// the reason. Does nothing by default.
    func gestureRecognizer(_ recognizer: GestureRecognizer, didEnd attempt: GestureAttempt)
}

extension GestureRecognizerDelegate {
    /// `true`: the recognizer may begin.
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }

    /// `false`: the recognizers compete.
    public func gestureRecognizer(
        _ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer
    ) -> Bool { false }

    /// Nothing.
    public func gestureRecognizer(_ recognizer: GestureRecognizer, didEnd attempt: GestureAttempt) {}
}

/// How one attempt of a gesture recognizer ended: the terminal state it reached and why.
///
/// ```swift
/// doubleTap.lastAttempt   // GestureAttempt(state: .failed, reason: .notRecognized): too slow
/// singleTap.lastAttempt   // GestureAttempt(state: .recognized, reason: .completed)
/// ```
public struct GestureAttempt: Hashable, Sendable, CustomStringConvertible {
    /// The terminal state: ``GestureRecognizer/State/recognized``,
    /// ``GestureRecognizer/State/ended``, ``GestureRecognizer/State/cancelled`` or
    /// ``GestureRecognizer/State/failed``.
    public let state: GestureRecognizer.State
    /// Why the attempt ended there.
    public let reason: Reason

    /// An attempt that ended in `state` for `reason`.
    public init(state: GestureRecognizer.State, reason: Reason) {
        self.state = state
        self.reason = reason
    }

    /// Why an attempt ended.
    public enum Reason: Hashable, Sendable, CustomStringConvertible {
        /// The gesture happened: recognized, or ended after it began.
        case completed
        /// The recognizer's own rules ruled the input out: it moved too far, lasted too long,
        /// went the wrong way, lifted too early.
        case notRecognized
        /// Another recognizer (named by its label) won a pointer this one was tracking: it
        /// recognized first, or the pointer's arena was swept in its favour.
        case defeated(by: String)
        /// A recognizer this one required to fail (``GestureRecognizer/require(toFail:)``) began
        /// or recognized.
        case requirementRecognized(String)
        /// ``GestureRecognizerDelegate/gestureRecognizerShouldBegin(_:)`` said no, or a view
        /// under the pointers did (``View/gestureRecognizerShouldBegin(_:)``: a control keeps
        /// its own tap).
        case declined
        /// A pointer sequence the attempt followed was cancelled, or the recognizer's view left
        /// its window, or the window was detached: the cancellation's reason.
        case inputCancelled(PointerCancellation)
        /// The recognizer was removed from its view, or disabled.
        case removed

        /// The reason in a few words.
        public var description: String {
            switch self {
            case .completed: "completed"
            case .notRecognized: "not recognized"
            case .defeated(let winner): "defeated by \(winner)"
            case .requirementRecognized(let other): "\(other), required to fail, recognized"
            case .declined: "declined to begin"
            case .inputCancelled(let reason): "input cancelled (\(reason))"
            case .removed: "removed"
            }
        }
    }

    /// `state (reason)`.
    public var description: String { "\(state) (\(reason))" }
}

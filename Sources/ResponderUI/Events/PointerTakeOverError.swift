/// Why a view could not take over a pointer sequence (``View/takeOver(_:)``). Nothing changed:
/// the sequence, if there is one, is still bound to the same view, and no one was told anything.
///
/// ```swift
/// do {
///     try scrollView.takeOver(pointer)
/// } catch PointerTakeOverError.notAnAncestor {
///     // the pointer went down outside the scroll view: leave it alone
/// } catch {
///     // .noSequence: it has ended already; .alreadyBound: the scroll view has it;
///     // .claimedByGesture: a gesture recognizer has it
/// }
/// ```
public enum PointerTakeOverError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The view is in no window, so it has no pointer sequences to take.
    case notInWindow
    /// The pointer has no sequence in progress in the view's window: it never began there, or
    /// its sequence has ended or been cancelled.
    case noSequence
    /// The sequence is already bound to the view.
    case alreadyBound
    /// The view the sequence is bound to is not in the taker's subtree: only an ancestor (a
    /// superview, at any depth, or the window) can take a sequence over.
    case notAnAncestor
    /// A gesture recognizer claimed the sequence (``GestureRecognizer/cancelsTouchesInView``):
    /// it belongs to no view any more.
    case claimedByGesture

    /// What went wrong, in a few words.
    public var description: String {
        switch self {
        case .notInWindow: "the taker is in no window"
        case .noSequence: "the pointer has no sequence in progress in the taker's window"
        case .alreadyBound: "the sequence is already bound to the taker"
        case .notAnAncestor: "the view the sequence is bound to is not in the taker's subtree"
        case .claimedByGesture: "a gesture recognizer claimed the sequence"
        }
    }
}

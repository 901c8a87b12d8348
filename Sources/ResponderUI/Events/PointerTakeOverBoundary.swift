/// The information a take-over's `cancelled` carries (in `EventContext.info`): the view that took
/// the sequence over. The responders below it lose the sequence and are told; the taker and
/// everything above it keep it, so the first interface responder the event reaches that is not
/// below the taker ends the send, handled, without running anything (see
/// ``InterfaceResponder/handle(_:context:)``).
struct PointerTakeOverBoundary: InfoKey, Sendable, CustomStringConvertible {
    typealias Value = PointerTakeOverBoundary

    static var name: String { "takenOverBy" }

    /// The view that took the sequence over.
    let taker: View

    /// Whether `responder` is below the taker, as the tree now stands: a view of its subtree
    /// other than itself, or a controller whose root view is one.
    @MainActor
    func isBelowTaker(_ responder: InterfaceResponder) -> Bool {
        guard let view = (responder as? View) ?? (responder as? ViewController)?.view, view !== taker
        else { return false }
        return view.isDescendant(of: taker)
    }

    /// The taker's label.
    var description: String { taker.label }
}

/// Owns a tree of views (its ``view``) and the logic behind it: the window layer's
/// `UIViewController`.
///
/// In the chain a controller sits between its root view and what its root view is in:
///
/// ```
/// button → cell → table → root view → ProductController → (parent's views…) → window → …
/// ```
///
/// Its next responder is its presenter when it was presented (``present(_:)``), and its root
/// view's superview otherwise (the window, for a window's root controller; a view of the parent
/// controller, for a child). A controller whose view is in no tree ends the chain.
///
/// A controller can hand the events it does not handle itself to a separate object with its own
/// handlers — the "event proxy" beside the controller, the proxy of its handler table:
///
/// ```swift
/// controller.eventProxy = ProductEvents(store: store)   // any Responder; its `next` is unused
/// ```
@MainActor
open class ViewController: InterfaceResponder {
    /// The root view, set at creation; its ``View/viewController`` is this controller.
    public let view: View
    /// The controller this one is a child of.
    public private(set) weak var parent: ViewController?
    /// The child controllers, in the order they were added.
    public private(set) var children: [ViewController] = []
    /// The controller this one presented, if any.
    public private(set) var presentedController: ViewController?
    /// The controller that presented this one, if it was presented.
    public private(set) weak var presentingController: ViewController?

    /// A separate responder whose handlers get the events no entry of this controller's
    /// ``EventHandling/strategies`` handles (only its `Responder.handle(_:context:)`
    /// runs; its `next` is never used).
    ///
    /// It is the proxy of the controller's table: setting it registers
    /// `strategies.proxy { $0.eventProxy }` (setting `nil`, `strategies.removeProxy()`), so it
    /// runs where a proxy runs — after the entries, before the catch-all and the pointer and key
    /// methods — and ``InterfaceResponder/canPerform(_:)`` sees its handlers. A later
    /// `strategies.proxy(_:)` replaces it.
    public var eventProxy: (any Responder)? {
        didSet {
            if eventProxy == nil {
                strategies.removeProxy()
            } else {
                strategies.proxy { $0.eventProxy }
            }
        }
    }

    /// A controller with `view` as its root view, named `label` in traces.
    public init(view: View = View(), label: String? = nil) {
        self.view = view
        super.init(label: label)
        view.viewController = self
    }

    /// The presenter if presented, otherwise the root view's superview; `nil` when the view is
    /// in no tree.
    open override var next: (any Responder)? {
        if let presentingController { return presentingController }
        return view.superview
    }

    /// The window the root view is in.
    open override var window: Window? { view.window }

    // MARK: Children

    /// Adds `child` as a child controller. Put its ``view`` into this controller's view tree to
    /// give it its place in the chain.
    public final func addChild(_ child: ViewController) {
        precondition(child !== self, "a controller cannot be its own child")
        child.removeFromParent()
        children.append(child)
        child.parent = self
    }

    /// Removes this controller from its parent, and its view from its superview.
    public final func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        view.removeFromSuperview()
    }

    // MARK: Presentation

    /// Presents `controller` over this one: its view goes on top of this controller's window,
    /// filling it, and its chain continues at this controller. Does nothing when this
    /// controller is not in a window or already presents one, or when `controller` is this one,
    /// is already presented, or presents one itself (the chain would loop).
    public final func present(_ controller: ViewController) {
        guard controller !== self, controller.presentingController == nil,
            controller.presentedController == nil, presentedController == nil, let window
        else { return }
        presentedController = controller
        controller.presentingController = self
        controller.view.frame = window.bounds
        window.addSubview(controller.view)
    }

    /// Dismisses the controller this one presented (and whatever that one presented), or, if
    /// this one was presented and presents nothing, dismisses itself. A dismissed controller's
    /// view leaves the window: events in flight there end interrupted.
    public final func dismiss() {
        if presentedController != nil {
            dismissPresented()
        } else {
            presentingController?.dismissPresented()
        }
    }

    private func dismissPresented() {
        guard let presented = presentedController else { return }
        presented.dismissPresented()
        presented.view.removeFromSuperview()
        presented.presentingController = nil
        presentedController = nil
    }
}

/// A rectangle on screen that draws nothing, holds subviews, is hit-tested, and responds to
/// events: the window layer's `UIView`.
///
/// Views form a tree: each has one ``superview`` and ordered ``subviews`` (the last is the
/// front-most). A view's ``frame`` places it in its superview's coordinates; its
/// ``boundsOrigin`` scrolls its own content (a scroll view whose bounds origin is `(0, 100)`
/// shows its content 100 points further down).
///
/// ```swift
/// let cell = View(frame: Rect(x: 0, y: 44, width: 320, height: 44), label: "cell 1")
/// let buy = Button(frame: Rect(x: 260, y: 7, width: 30, height: 30), label: "buy")
/// buy.hitAreaInsets = EdgeInsets(all: -10)     // answer taps 10 points around it
/// cell.addSubview(buy)
/// table.addSubview(cell)
/// ```
///
/// In the chain, a view's next responder is its controller if it is a controller's root view,
/// and its superview otherwise. A view with neither (removed from its tree) ends the chain:
/// events in flight there end `Outcome.interrupted(_:)`.
///
/// Subclass it and override ``hitTest(_:)`` or ``point(inside:)`` to change hit testing, and the
/// pointer methods (``InterfaceResponder/pointerBegan(_:)``…) to track pointers.
@MainActor
open class View: InterfaceResponder {
    /// The view this one is a subview of.
    public private(set) weak var superview: View?
    /// The subviews, back to front: the last one is drawn on top and hit-tested first.
    public private(set) var subviews: [View] = []
    /// The controller whose root view this is, if any.
    public internal(set) weak var viewController: ViewController?
    /// The gesture recognizers attached here (``gestureRecognizers``).
    final var recognizers: [GestureRecognizer] = []

    /// Everything hit testing reads about this view, in one value, so that a visit makes one
    /// exclusivity-checked access rather than one per property.
    struct Geometry {
        var frame: Rect
        var boundsOrigin: Point = .zero
        var isHidden = false
        var alpha: Double = 1
        var isUserInteractionEnabled = true
        var hitAreaInsets: EdgeInsets = .zero
        var clipsToBounds = false

        var isHitTestable: Bool { !isHidden && isUserInteractionEnabled && alpha > 0.01 }
        var bounds: Rect { Rect(origin: boundsOrigin, size: frame.size) }
        var hitArea: Rect { bounds.inset(by: hitAreaInsets) }
    }

    final var geometry: Geometry

    /// The view's rectangle in its superview's coordinates.
    public final var frame: Rect {
        get { geometry.frame }
        set { geometry.frame = newValue }
    }
    /// The origin of the view's own coordinate system: scroll content by moving it.
    public final var boundsOrigin: Point {
        get { geometry.boundsOrigin }
        set { geometry.boundsOrigin = newValue }
    }
    /// Whether the view is hidden: a hidden view and its subviews are never hit.
    public final var isHidden: Bool {
        get { geometry.isHidden }
        set { geometry.isHidden = newValue }
    }
    /// The view's opacity, 0…1. A view with an alpha of 0.01 or less is never hit, nor are its
    /// subviews. Only each view's own alpha counts (not the product with its ancestors').
    public final var alpha: Double {
        get { geometry.alpha }
        set { geometry.alpha = newValue }
    }
    /// Whether the view takes part in hit testing; when `false`, it and its subviews are skipped.
    public final var isUserInteractionEnabled: Bool {
        get { geometry.isUserInteractionEnabled }
        set { geometry.isUserInteractionEnabled = newValue }
    }
    /// Insets applied to ``bounds`` to get the area that answers hits: negative values enlarge it
    /// (`EdgeInsets(all: -10)`), positive values shrink it.
    public final var hitAreaInsets: EdgeInsets {
        get { geometry.hitAreaInsets }
        set { geometry.hitAreaInsets = newValue }
    }
    /// Whether drawing is clipped to the bounds. Hit testing ignores it: a parent that does not
    /// contain a point hides its subviews there either way (what UIKit does).
    public final var clipsToBounds: Bool {
        get { geometry.clipsToBounds }
        set { geometry.clipsToBounds = newValue }
    }

    /// A view at `frame`, named `label` in traces (the type's name if `nil`).
    public init(frame: Rect = .zero, label: String? = nil) {
        self.geometry = Geometry(frame: frame)
        super.init(label: label)
    }

    /// The view's rectangle in its own coordinates: ``boundsOrigin`` and the frame's size.
    public final var bounds: Rect { geometry.bounds }

    /// The area that answers hits, in the view's own coordinates: ``bounds`` inset by
    /// ``hitAreaInsets``.
    public final var hitArea: Rect { geometry.hitArea }

    // MARK: Chain

    /// The controller for a controller's root view, otherwise the superview; `nil` once the view
    /// is out of its tree.
    open override var next: (any Responder)? {
        if let viewController { return viewController }
        return superview
    }

    /// The window at the top of this view's tree, if it is in one.
    open override var window: Window? { superview?.window }

    // MARK: Hit testing

    /// The front-most, deepest view under `point` (in this view's coordinates), or `nil`.
    ///
    /// The rules (see Docs/WindowLayer.md): a hidden view, a view with interaction disabled, or
    /// one with ``alpha`` ≤ 0.01 is skipped with its subtree; a view whose
    /// ``point(inside:)`` is `false` hides its subviews there; subviews are tried last-added
    /// first, each with the point converted into its coordinates; the view itself is the answer
    /// when none of them is. Override it to take over the whole test for this subtree.
    open func hitTest(_ point: Point) -> View? {
        hitTestSubtree(point)
    }

    /// Whether `point` (in this view's coordinates) is in this view's hit area (``hitArea``,
    /// half-open). Override it for non-rectangular shapes.
    open func point(inside point: Point) -> Bool {
        geometry.hitArea.contains(point)
    }

    // MARK: Gestures

    /// Whether `recognizer`, attached to an ancestor of this view, may begin with a pointer that
    /// went down on this view (or on a view below it, when that one said yes): asked when the
    /// recognizer has won its pointers, of each view from the one hit up to the recognizer's
    /// view (not included). `true` by default; a ``Control`` keeps its own tap from a single tap
    /// recognizer above it.
    open func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        true
    }

    // MARK: Tree

    /// Adds `view` on top of the subviews (removing it from its old superview first).
    ///
    /// A view cannot be added to itself or to one of its own subviews.
    public final func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` among the subviews at `index` (0 is the back), removing it from its old
    /// superview first. An index past the end adds it on top.
    public final func insertSubview(_ view: View, at index: Int) {
        precondition(view !== self && !isDescendant(of: view), "a view cannot contain itself")
        let oldWindow = view.window
        if let old = view.superview {
            old.subviews.removeAll { $0 === view }
        }
        view.superview = self
        subviews.insert(view, at: max(0, min(index, subviews.count)))
        if let oldWindow, oldWindow !== view.window {
            oldWindow.subtreeDidLeave(view, reason: .viewLeftWindow)
        }
    }

    /// Removes this view (and its subtree) from its superview. Pointer sequences bound to views
    /// of the subtree are cancelled (see ``InterfaceResponder/pointerCancelled(_:)``; the
    /// `cancelled` now ends at the subtree's root), a first responder inside it is dropped and
    /// told (``InterfaceResponder/didResignFirstResponder()``), and events in flight there end
    /// `Outcome.interrupted(_:)` at their next hop, except the events of the cancelled
    /// sequences, which the window withdraws (see ``Window/dispatch(_:at:pointer:)``).
    public final func removeFromSuperview() {
        guard let superview else { return }
        let oldWindow = window
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
        oldWindow?.subtreeDidLeave(self, reason: .viewLeftWindow)
    }

    /// Moves `view`, one of the subviews, to the front (it is hit-tested first).
    public final func bringSubviewToFront(_ view: View) {
        guard let index = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.remove(at: index)
        subviews.append(view)
    }

    /// Moves `view`, one of the subviews, to the back (it is hit-tested last).
    public final func sendSubviewToBack(_ view: View) {
        guard let index = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.remove(at: index)
        subviews.insert(view, at: 0)
    }

    /// Whether this view is `view` or lies in its subtree.
    public final func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }
}

/// Baseline for scenario 6: a plain recursive class tree with the window layer's hit-testing
/// rules and nothing else: skip hidden, interaction-disabled and `alpha <= 0.01` views with their
/// subtrees; a view that does not contain the point (its bounds enlarged by hit-area insets,
/// half-open) hides its subviews; subviews are tested last-added first, with the point converted
/// into each subview's coordinates (frame origin and bounds origin).
final class BareView {
    var x: Double
    var y: Double
    var width: Double
    var height: Double
    var boundsX = 0.0
    var boundsY = 0.0
    var isHidden = false
    var alpha = 1.0
    var isUserInteractionEnabled = true
    /// Hit-area insets: top, left, bottom, right (negative values enlarge).
    var insets = (top: 0.0, left: 0.0, bottom: 0.0, right: 0.0)
    private(set) var subviews: [BareView] = []

    init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    func addSubview(_ view: BareView) {
        subviews.append(view)
    }

    /// The deepest view under (`px`, `py`), in this view's coordinates.
    func hitTest(_ px: Double, _ py: Double) -> BareView? {
        guard !isHidden, isUserInteractionEnabled, alpha > 0.01, contains(px, py) else {
            return nil
        }
        var index = subviews.count
        while index > 0 {
            index -= 1
            let subview = subviews[index]
            if let hit = subview.hitTest(px - subview.x + subview.boundsX, py - subview.y + subview.boundsY) {
                return hit
            }
        }
        return self
    }

    /// The same walk as ``hitTest(_:_:)``, counting the views it visits (views whose hit test
    /// runs, skipped ones included). Not timed.
    func countVisits(_ px: Double, _ py: Double, visits: inout Int) -> BareView? {
        visits += 1
        guard !isHidden, isUserInteractionEnabled, alpha > 0.01, contains(px, py) else {
            return nil
        }
        var index = subviews.count
        while index > 0 {
            index -= 1
            let subview = subviews[index]
            if let hit = subview.countVisits(
                px - subview.x + subview.boundsX, py - subview.y + subview.boundsY, visits: &visits)
            {
                return hit
            }
        }
        return self
    }

    @inline(__always)
    private func contains(_ px: Double, _ py: Double) -> Bool {
        let minX = boundsX + insets.left
        let minY = boundsY + insets.top
        let maxX = minX + width - insets.left - insets.right
        let maxY = minY + height - insets.top - insets.bottom
        return px >= minX && px < maxX && py >= minY && py < maxY
    }
}

extension View {
    /// Whether hit testing may enter this view at all: not hidden, interaction enabled, and
    /// alpha above 0.01 (the view's own alpha, not a product).
    public final var isHitTestable: Bool { geometry.isHitTestable }

    /// The default hit test (see ``View/hitTest(_:)``). No allocation: a loop over the
    /// subviews, back to front, with the point converted by plain arithmetic.
    @inline(__always)
    final func hitTestSubtree(_ point: Point) -> View? {
        guard geometry.isHitTestable, self.point(inside: point) else { return nil }
        let subviews = self.subviews
        var index = subviews.count
        while index > 0 {
            index -= 1
            let subview = subviews[index]
            let geometry = subview.geometry  // one checked access for both reads
            let local = Point(
                x: point.x - geometry.frame.origin.x + geometry.boundsOrigin.x,
                y: point.y - geometry.frame.origin.y + geometry.boundsOrigin.y)
            if let hit = subview.hitTest(local) { return hit }
        }
        return self
    }
}

extension View {
    /// Whether hit testing may enter this view at all: not hidden, interaction enabled, and
    /// alpha above 0.01 (the view's own alpha, not a product).
    public final var isHitTestable: Bool { geometry.isHitTestable }

    /// The default hit test (see ``View/hitTest(_:)``). No allocation: a loop over the
    /// subviews, back to front, with the point converted by plain arithmetic.
    @inline(__always)
    final func hitTestSubtree(_ point: Point) -> View? {
        guard geometry.isHitTestable, self.point(inside: point) else { return nil }
        // A copy of the array (one retain of its buffer): an override that changes this view's
        // subviews during the loop changes `self.subviews`, not this buffer, which keeps every
        // subview tried here alive until the loop ends. That is what lets `withSubview` lend
        // each subview out without retaining it.
        let subviews = self.subviews
        var index = subviews.count
        while index > 0 {
            index -= 1
            let hit = withSubview(of: subviews, at: index) { subview in
                let geometry = subview.geometry  // one read for frame and bounds origin
                let local = Point(
                    x: point.x - geometry.frame.origin.x + geometry.boundsOrigin.x,
                    y: point.y - geometry.frame.origin.y + geometry.boundsOrigin.y)
                return subview.hitTest(local)
            }
            if let hit { return hit }
        }
        return self
    }
}

/// Calls `body` with `subviews[index]` without retaining it: the array, borrowed for the whole
/// call (and never mutated: it is a value), keeps it alive. A view that is another's `weak`
/// superview has a side table, through which every retain and release of it goes (see "Design
/// notes measured" in Benchmarks.md).
///
/// Declared here, in a Swift 6 module, on purpose: a main-actor closure passed straight to the
/// standard library's `_withUnsafeGuaranteedRef` gets a run-time executor check on every call.
@inline(__always)
private func withSubview<Result>(
    of subviews: [View], at index: Int, _ body: (View) -> Result
) -> Result {
    Unmanaged.passUnretained(subviews[index])._withUnsafeGuaranteedRef(body)
}
